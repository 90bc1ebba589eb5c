import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { pullRoutes } from "../fake/pulls-routes.js";

let gh: GithubHarness;
let roomy: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([pullRoutes]);
  roomy = await startGithubHarness([pullRoutes], { maxItems: 200 });
});
afterAll(async () => {
  await gh.close();
  await roomy.close();
});

const search = (input: Record<string, unknown>, harness = gh) =>
  harness.seam.call(harness.context(), "github_search_pull_requests", input);

describe("github_search_pull_requests", () => {
  it("searches GitHub's issues with is:pr and the repository as a qualifier", async () => {
    const before = gh.fake.requests.length;
    const result = await search({ query: "widget", owner: "octocat", repo: "hello-world" });
    const sent = gh.fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe("GET");
    expect(sent[0]?.path).toBe("/search/issues");
    expect(sent[0]?.query).toMatchObject({ q: "widget is:pr repo:octocat/hello-world", page: "1" });
    expect(sent[0]?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      complete: true,
      items: [
        { repository: "octocat/hello-world", number: 5, title: "Document the widget", draft: true },
        {
          repository: "octocat/hello-world",
          number: 1,
          title: "Add the widget",
          state: "open",
          author: "hubot",
        },
      ],
    });
    expect(result.content).toContain("2 pull requests found; GitHub counts 2 in all:");
    expect(result.content).toContain("octocat/hello-world#1 Add the widget [open] by hubot");
    expect(result.provenance?.trusted).toBe(false);
    expect(result.provenance?.source).toBe(
      "https://github.com/search?q=widget+is%3Apr+repo%3Aoctocat%2Fhello-world&type=pullrequests",
    );
  });

  it("searches across repositories when no repository is named, with GitHub's sort and order", async () => {
    const before = gh.fake.requests.length;
    const result = await search({ query: "author:octocat", sort: "updated", order: "asc" });
    expect(gh.fake.requests.slice(before)[0]?.query).toMatchObject({
      q: "author:octocat is:pr",
      sort: "updated",
      order: "asc",
    });
    expect(result.ok && result.data).toMatchObject({ items: [{ number: 2, author: "octocat" }] });
  });

  it("refuses is:issue, and an owner without a repository, before any request", async () => {
    const before = gh.fake.requests.length;
    for (const input of [{ query: "crash is:issue" }, { query: "crash", owner: "octocat" }, { query: "" }]) {
      const result = await search(input);
      expect(result.ok || result.error.code).toBe("invalid_input");
    }
    expect(gh.fake.requests.length).toBe(before);
  });

  it("refuses more search text than GitHub takes, not counting qualifiers", async () => {
    const words = "word ".repeat(60).trim();
    const accepted = await search({ query: `${"a".repeat(250)} author:octocat label:bug is:open` });
    expect(accepted.ok).toBe(true);
    const refused = await search({ query: words });
    expect(refused.ok || refused.error.code).toBe("invalid_input");
  });

  it("stops at the limit and says how many GitHub counted", async () => {
    const before = gh.fake.requests.length;
    const result = await search({ query: "is:open", limit: 5 });
    const sent = gh.fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.query.per_page).toBe("5");
    expect(result.ok && result.truncated).toBe(true);
    if (!result.ok) return;
    expect((result.data as { items: unknown[] }).items).toHaveLength(5);
    expect(result.content).toContain("the first 5 pull requests found; there are more");
    expect(result.content).toContain("GitHub counts 134 in all");
  });

  it("reads the next page while GitHub's Link header has one, and no further than needed", async () => {
    const before = roomy.fake.requests.length;
    const result = await search({ query: "is:open", limit: 110 }, roomy);
    const pages = roomy.fake.requests
      .slice(before)
      .map((request) => [request.query.page, request.query.per_page, request.headers.authorization]);
    expect(pages).toEqual([
      ["1", "100", `Bearer ${TEST_TOKEN}`],
      ["2", "100", `Bearer ${TEST_TOKEN}`],
    ]);
    expect(result.ok && result.truncated).toBe(true);
    if (result.ok) expect((result.data as { items: unknown[] }).items).toHaveLength(110);
  });

  it("explains GitHub's 422 for a repository the credential cannot search", async () => {
    const result = await search({ query: "widget", owner: "octocat", repo: "secret" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toMatch(/cannot be searched.*do not exist or you do not have permission/);
  });

  it("reports GitHub's secondary rate limit with its retry-after", async () => {
    gh.fake.failNext("GET", "/search/issues", {
      status: 403,
      body: {
        message:
          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.",
        documentation_url:
          "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
      },
      headers: { "retry-after": "60" },
    });
    const result = await search({ query: "widget" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "upstream_rate_limited", retryAfterMs: 60_000 });
    expect(result.error.message).toMatch(/secondary rate limit/);
  });
});
