import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import { addIssues, type IssueHarness, primaryRateLimit, startIssueHarness } from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness();
});
afterAll(() => h.gh.close());

const repo = { owner: "octocat", repo: "hello-world" };
const call = (input: Record<string, unknown>, harness = h) =>
  harness.gh.seam.call(harness.gh.context(), "github_list_issues", { ...repo, ...input });
const numbers = (data: unknown) => (data as { items: { number: number }[] }).items.map((item) => item.number);

describe("github_list_issues", () => {
  it("sends GitHub's filters as its query, with the credential egress injected", async () => {
    const result = await call({
      labels: ["bug"],
      assignee: "monalisa",
      sort: "updated",
      direction: "asc",
      since: "2024-01-01T00:00:00Z",
    });
    const sent = h.gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/issues");
    expect(sent?.query).toEqual({
      state: "open",
      labels: "bug",
      assignee: "monalisa",
      sort: "updated",
      direction: "asc",
      since: "2024-01-01T00:00:00Z",
      per_page: "100",
    });
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok && numbers(result.data)).toEqual([12]);
  });

  it("leaves out the pull requests GitHub lists among issues, and says how many", async () => {
    const result = await call({});
    expect(result).toMatchObject({
      ok: true,
      data: { complete: true, pullRequestsLeftOut: 2 },
      provenance: { source: "https://github.com/octocat/hello-world/issues", trusted: false },
    });
    if (!result.ok) return;
    expect(numbers(result.data)).toEqual([12, 9, 8, 7, 6, 3, 1]);
    expect(result.content).toMatch(/7 open issues of octocat\/hello-world; 2 pull requests were left out/);
    expect(result.content).toMatch(/#12 open: Flaky test on Windows \[bug\] → monalisa, hubot/);
  });

  it("passes a milestone number, none or * as GitHub takes them", async () => {
    const result = await call({ milestone: 1, state: "all" });
    expect(h.gh.fake.requests.at(-1)?.query).toMatchObject({ milestone: "1", state: "all" });
    expect(result.ok && numbers(result.data)).toEqual([6, 1]);
    await call({ milestone: "none" });
    expect(h.gh.fake.requests.at(-1)?.query.milestone).toBe("none");
  });

  it("stops at the limit with one page asked for, and says there are more", async () => {
    const before = h.gh.fake.requests.length;
    const result = await call({ limit: 3 });
    expect(h.gh.fake.requests.length - before).toBe(1);
    expect(h.gh.fake.requests.at(-1)?.query.per_page).toBe("3");
    expect(result).toMatchObject({
      ok: true,
      truncated: true,
      data: { complete: false, pullRequestsLeftOut: 1 },
    });
    if (!result.ok) return;
    expect(numbers(result.data)).toEqual([12, 9]);
    expect(result.content).toMatch(/the first 2 open issues .*there are more/);
  });

  it("reports GitHub's primary rate limit with when it lifts", async () => {
    h.gh.fake.failNext("GET", "/repos/octocat/hello-world/issues", primaryRateLimit(600));
    const result = await call({});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      code: "upstream_rate_limited",
      retryable: true,
      details: { limit: "primary" },
    });
    expect(result.error.retryAfterMs).toBeGreaterThan(590_000);
    expect(result.error.retryAfterMs).toBeLessThanOrEqual(600_000);
  });

  it("says a 404 may mean no access", async () => {
    const result = await call({ repo: "private-thing" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/no issues of octocat\/private-thing.*no access/);
  });

  it("refuses a label filter with a comma and a time that is not ISO 8601, before any request", async () => {
    const before = h.gh.fake.requests.length;
    for (const input of [{ labels: ["bug,ui"] }, { since: "yesterday" }, { assignee: "-bad-" }]) {
      const result = await call(input);
      expect(result.ok ? "ok" : result.error.code).toBe("invalid_input");
    }
    expect(h.gh.fake.requests.length).toBe(before);
  });
});

describe("github_list_issues over more than a page", () => {
  let big: IssueHarness;
  beforeAll(async () => {
    big = await startIssueHarness({ maxItems: 200 });
    addIssues(big.store, 150, "Bulk");
  });
  afterAll(() => big.gh.close());

  it("follows GitHub's next links to the limit, and no further", async () => {
    const result = await call({ limit: 120 }, big);
    expect(big.gh.fake.requests.map((request) => request.query.page)).toEqual([undefined, "2"]);
    expect(result).toMatchObject({ ok: true, truncated: true, data: { complete: false } });
    if (result.ok) expect(numbers(result.data)).toHaveLength(120);
  });

  it("walks every page when the limit covers the list", async () => {
    const before = big.gh.fake.requests.length;
    const result = await call({ limit: 200 }, big);
    expect(big.gh.fake.requests.length - before).toBe(2);
    expect(result).toMatchObject({ ok: true, data: { complete: true, pullRequestsLeftOut: 2 } });
    if (result.ok) expect(numbers(result.data)).toHaveLength(157);
  });
});
