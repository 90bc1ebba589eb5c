import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import { helloWorld, type IssueHarness, startIssueHarness } from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness();
});
afterAll(() => h.gh.close());

const repo = { owner: "octocat", repo: "hello-world" };
const comment = (input: Record<string, unknown>) =>
  h.gh.callApproved("github_comment", { ...repo, ...input });

describe("github_comment", () => {
  it("POSTs the comment with the credential egress injected, and returns its id and link", async () => {
    const result = await comment({ issue_number: 7, body: "Reproduced on main." });
    const sent = h.gh.fake.requests.at(-1);
    expect(sent?.method).toBe("POST");
    expect(sent?.path).toBe("/repos/octocat/hello-world/issues/7/comments");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.body).toEqual({ body: "Reproduced on main." });
    const stored = helloWorld(h.store).comments.at(-1);
    expect(result).toMatchObject({
      ok: true,
      data: {
        id: stored?.id,
        issueNumber: 7,
        author: "octocat",
        url: `https://github.com/octocat/hello-world/issues/7#issuecomment-${stored?.id}`,
      },
    });
  });

  it("comments on a pull request's conversation by its number", async () => {
    const result = await comment({ issue_number: 2, body: "Looks good." });
    expect(h.gh.fake.requests.at(-1)?.path).toBe("/repos/octocat/hello-world/issues/2/comments");
    expect(result.ok).toBe(true);
  });

  it("says GitHub forbids commenting on a locked conversation without push access", async () => {
    h.store.viewerCanPush = false;
    const result = await comment({ issue_number: 9, body: "Calm down." });
    h.store.viewerCanPush = true;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.message).toMatch(
      /forbade a comment on octocat\/hello-world#9: Unable to create comment because issue is locked/,
    );
  });

  it("says a 404 may mean no access", async () => {
    const result = await comment({ issue_number: 999, body: "Hello?" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/no access/);
  });

  it("refuses an empty comment and one longer than GitHub takes, before any request", async () => {
    const before = h.gh.fake.requests.length;
    for (const body of ["", "c".repeat(65_537)]) {
      const result = await h.gh.seam.call(h.gh.context(), "github_comment", {
        ...repo,
        issue_number: 7,
        body,
      });
      expect(result.ok ? "ok" : result.error.code).toBe("invalid_input");
    }
    expect(h.gh.fake.requests.length).toBe(before);
  });
});
