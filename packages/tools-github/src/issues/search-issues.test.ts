import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import { addIssues, type IssueHarness, primaryRateLimit, startIssueHarness } from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness({ maxItems: 200 });
});
afterAll(() => h.gh.close());

const call = (input: Record<string, unknown>) =>
  h.gh.seam.call(h.gh.context(), "github_search_issues", input);
const numbers = (data: unknown) => (data as { items: { number: number }[] }).items.map((item) => item.number);

describe("github_search_issues", () => {
  it("searches issues only, in one repository, and returns each hit with its repository and GitHub's total", async () => {
    const result = await call({
      query: "crash",
      owner: "octocat",
      repo: "hello-world",
      state: "open",
      sort: "updated",
      order: "asc",
    });
    const sent = h.gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/search/issues");
    expect(sent?.query).toEqual({
      q: "crash repo:octocat/hello-world is:open is:issue",
      sort: "updated",
      order: "asc",
      per_page: "100",
      page: "1",
    });
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result).toMatchObject({
      ok: true,
      data: {
        items: [{ repository: "octocat/hello-world", number: 1, title: "Crash on start", labels: ["bug"] }],
        totalCount: 1,
        incompleteResults: false,
        complete: true,
      },
      provenance: { trusted: false },
    });
    if (result.ok) expect(result.content).toMatch(/GitHub counts 1 match/);
  });

  it("does not add is:issue twice, and searches across GitHub without a repository", async () => {
    const result = await call({ query: "label:bug is:issue" });
    expect(h.gh.fake.requests.at(-1)?.query.q).toBe("label:bug is:issue");
    expect(result.ok && numbers(result.data).sort((a, b) => a - b)).toEqual([1, 6, 7, 12]);
  });

  it("says when GitHub's search timed out and its results may be incomplete", async () => {
    h.store.searchTimesOut = true;
    const result = await call({ query: "proxy" });
    h.store.searchTimesOut = false;
    expect(result).toMatchObject({ ok: true, data: { incompleteResults: true } });
    if (result.ok) expect(result.content).toMatch(/timed out \(incomplete_results\).*narrow the query/);
  });

  it("pages to the limit only, and says there are more", async () => {
    addIssues(h.store, 150, "Bulk");
    const before = h.gh.fake.requests.length;
    const result = await call({ query: "bulk", limit: 120 });
    expect(h.gh.fake.requests.slice(before).map((request) => request.query.page)).toEqual(["1", "2"]);
    expect(result).toMatchObject({ ok: true, truncated: true, data: { complete: false, totalCount: 150 } });
    if (!result.ok) return;
    expect(numbers(result.data)).toHaveLength(120);
    expect(result.content).toMatch(
      /the first 120 issues matching bulk is:issue; there are more.*GitHub counts 150 matches/,
    );
  });

  it("reports the search API's own rate limit (30 a minute) with when it lifts", async () => {
    h.gh.fake.failNext("GET", "/search/issues", primaryRateLimit(40, "search", 30));
    const result = await call({ query: "crash" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(result.error.message).toMatch(/search rate limit.*30 requests a minute/);
    expect(result.error.retryAfterMs).toBeGreaterThan(30_000);
    expect(result.error.retryAfterMs).toBeLessThanOrEqual(40_000);
  });

  it("reads GitHub's 503 as a failure worth retrying", async () => {
    h.gh.fake.failNext("GET", "/search/issues", {
      status: 503,
      body: {
        code: "unavailable",
        message: "Service unavailable",
        documentation_url: "https://docs.github.com/rest",
      },
    });
    const result = await call({ query: "crash" });
    expect(result.ok ? "ok" : result.error).toMatchObject({ code: "upstream_error", retryable: true });
  });

  it("turns GitHub's 422 for a repository it cannot search into invalid_input", async () => {
    const result = await call({ query: "crash", owner: "octocat", repo: "secret" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toMatch(/cannot be searched/);
  });

  it("refuses pull request searches and queries past GitHub's limits, before any request", async () => {
    const before = h.gh.fake.requests.length;
    const refused = [
      { query: "fix is:pr" },
      { query: "fix type:pull-request" },
      { query: "x".repeat(257) },
      { query: "a OR b OR c OR d OR e OR f OR g" },
      { query: "crash", owner: "octocat" },
    ];
    for (const input of refused) {
      const result = await call(input);
      expect(result.ok ? "ok" : result.error.code, JSON.stringify(input)).toBe("invalid_input");
    }
    expect(h.gh.fake.requests.length).toBe(before);
  });

  it("counts only the text against GitHub's 256 characters, not the qualifiers", async () => {
    const result = await call({ query: `${"w".repeat(250)} label:bug author:octocat created:>2024-01-01` });
    expect(result.ok).toBe(true);
  });
});
