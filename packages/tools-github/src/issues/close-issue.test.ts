import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import { helloWorld, type IssueHarness, startIssueHarness } from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness();
});
afterAll(() => h.gh.close());

const repo = { owner: "octocat", repo: "hello-world" };
const close = (input: Record<string, unknown>) =>
  h.gh.callApproved("github_close_issue", { ...repo, ...input });

describe("github_close_issue", () => {
  it("PATCHes state closed as completed by default, with the credential egress injected", async () => {
    const result = await close({ issue_number: 1 });
    const sent = h.gh.fake.requests.at(-1);
    expect(sent?.method).toBe("PATCH");
    expect(sent?.path).toBe("/repos/octocat/hello-world/issues/1");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.body).toEqual({ state: "closed", state_reason: "completed" });
    expect(result).toMatchObject({
      ok: true,
      data: { number: 1, state: "closed", stateReason: "completed" },
    });
    expect(helloWorld(h.store).issues[0]?.closedAt).not.toBeNull();
  });

  it("closes as not planned", async () => {
    const result = await close({ issue_number: 3, state_reason: "not_planned" });
    expect(h.gh.fake.requests.at(-1)?.body).toEqual({ state: "closed", state_reason: "not_planned" });
    expect(result).toMatchObject({ ok: true, data: { state: "closed", stateReason: "not_planned" } });
  });

  it("says a 404 may mean no access", async () => {
    const result = await close({ issue_number: 999 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/no issue octocat\/hello-world#999.*no access/);
  });

  it("refuses a reason GitHub does not take for closing, before any request", async () => {
    const before = h.gh.fake.requests.length;
    const result = await h.gh.seam.call(h.gh.context(), "github_close_issue", {
      ...repo,
      issue_number: 3,
      state_reason: "reopened",
    });
    expect(result.ok ? "ok" : result.error.code).toBe("invalid_input");
    expect(h.gh.fake.requests.length).toBe(before);
  });
});
