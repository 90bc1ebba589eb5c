import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import { type IssueHarness, startIssueHarness } from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness();
});
afterAll(() => h.gh.close());

const call = (input: unknown) => h.gh.seam.call(h.gh.context(), "github_get_issue", input);

describe("github_get_issue", () => {
  it("GETs the issue with the credential egress injected, and returns the fields a model needs", async () => {
    const result = await call({ owner: "octocat", repo: "hello-world", issue_number: 7 });
    const sent = h.gh.fake.requests.at(-1);
    expect(sent?.method).toBe("GET");
    expect(sent?.path).toBe("/repos/octocat/hello-world/issues/7");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result).toMatchObject({
      ok: true,
      data: {
        number: 7,
        title: "Issue 7",
        state: "open",
        body: "It breaks.",
        labels: ["bug"],
        isPullRequest: false,
      },
      provenance: { source: "https://github.com/octocat/hello-world/issues/7", trusted: false },
    });
  });

  it("says when the number is a pull request's", async () => {
    const result = await call({ owner: "octocat", repo: "hello-world", issue_number: 2 });
    expect(result).toMatchObject({ ok: true, data: { number: 2, isPullRequest: true } });
  });

  it("says a 404 may mean no access, and names the issue", async () => {
    const result = await call({ owner: "octocat", repo: "hello-world", issue_number: 404 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.message).toMatch(/octocat\/hello-world#404.*no access/);
  });

  it("refuses a hostile repository name before any request", async () => {
    const before = h.gh.fake.requests.length;
    const result = await call({ owner: "octocat", repo: "../../orgs", issue_number: 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("invalid_input");
    expect(h.gh.fake.requests.length).toBe(before);
  });
});
