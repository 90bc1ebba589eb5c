import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import { helloWorld, type IssueHarness, startIssueHarness } from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness();
});
afterAll(() => h.gh.close());

const repo = { owner: "octocat", repo: "hello-world" };

describe("github_reopen_issue", () => {
  it("PATCHes state open with the reason reopened, with the credential egress injected", async () => {
    const result = await h.gh.callApproved("github_reopen_issue", { ...repo, issue_number: 4 });
    const sent = h.gh.fake.requests.at(-1);
    expect(sent?.method).toBe("PATCH");
    expect(sent?.path).toBe("/repos/octocat/hello-world/issues/4");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.body).toEqual({ state: "open", state_reason: "reopened" });
    expect(result).toMatchObject({
      ok: true,
      data: { number: 4, state: "open", stateReason: "reopened", closedAt: null },
      provenance: { trusted: false },
    });
    expect(helloWorld(h.store).issues[3]).toMatchObject({ state: "open", closedAt: null });
  });

  it("says GitHub answers 410 when the repository's issues are turned off", async () => {
    const result = await h.gh.callApproved("github_reopen_issue", {
      owner: "octocat",
      repo: "no-issues",
      issue_number: 1,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/410.*Issues are disabled/);
  });
});
