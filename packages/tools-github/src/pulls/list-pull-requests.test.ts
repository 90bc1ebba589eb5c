import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { pullRoutes } from "../fake/pulls-routes.js";

let gh: GithubHarness;
/** A deployment whose maxItems lets a list run past GitHub's 100-item page. */
let roomy: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([pullRoutes]);
  roomy = await startGithubHarness([pullRoutes], { maxItems: 200 });
});
afterAll(async () => {
  await gh.close();
  await roomy.close();
});

const list = (input: Record<string, unknown>, harness = gh) =>
  harness.seam.call(harness.context(), "github_list_pull_requests", { owner: "octocat", ...input });
const sentSince = (before: number, harness = gh) => harness.fake.requests.slice(before);

describe("github_list_pull_requests", () => {
  it("GETs the open pull requests and answers one line each, with the items as data", async () => {
    const before = gh.fake.requests.length;
    const result = await list({ repo: "hello-world" });
    const [sent, ...more] = sentSince(before);
    expect(more).toEqual([]);
    expect(sent?.method).toBe("GET");
    expect(sent?.path).toBe("/repos/octocat/hello-world/pulls");
    expect(sent?.query).toMatchObject({ state: "open", sort: "created", per_page: "100" });
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { items, complete } = result.data as { items: { number: number }[]; complete: boolean };
    expect(items.map((pull) => pull.number)).toEqual([5, 3, 2, 1]);
    expect(complete).toBe(true);
    expect(result.truncated).toBeFalsy();
    expect(items.at(-1)).toMatchObject({
      number: 1,
      title: "Add the widget",
      state: "open",
      draft: false,
      merged: false,
      author: "hubot",
      head: "octocat:feature-widget",
      base: "main",
      url: "https://github.com/octocat/hello-world/pull/1",
    });
    expect(result.content).toContain("#1 Add the widget [open] octocat:feature-widget → main by hubot");
    expect(result.content).toContain("#5 Document the widget [open, draft]");
    expect(result.provenance).toEqual({
      source: "https://github.com/octocat/hello-world/pulls",
      trusted: false,
    });
  });

  it("sends the state, base and head filters as GitHub names them", async () => {
    const before = gh.fake.requests.length;
    const result = await list({
      repo: "hello-world",
      state: "all",
      base: "main",
      head: "octocat:old-experiment",
    });
    expect(sentSince(before)[0]?.query).toMatchObject({
      state: "all",
      base: "main",
      head: "octocat:old-experiment",
    });
    expect(result.ok && result.data).toMatchObject({ items: [{ number: 4, state: "closed" }] });
  });

  it("refuses a head filter without its owner, which GitHub's filter does not take, before any request", async () => {
    const before = gh.fake.requests.length;
    const result = await list({ repo: "hello-world", head: "feature-widget" });
    expect(result.ok || result.error.code).toBe("invalid_input");
    expect(gh.fake.requests.length).toBe(before);
  });

  it("stops at the limit: one page of that size, truncated, and says there are more", async () => {
    const before = gh.fake.requests.length;
    const result = await list({ repo: "hello-world", state: "all", limit: 3 });
    const sent = sentSince(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.query.per_page).toBe("3");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBe(true);
    expect((result.data as { items: unknown[] }).items).toHaveLength(3);
    expect(result.content).toContain("the first 3 pull requests of octocat/hello-world; there are more");
  });

  it("follows GitHub's Link rel=next only as far as the limit needs", async () => {
    const before = roomy.fake.requests.length;
    const result = await list({ repo: "busy", limit: 120 }, roomy);
    const sent = sentSince(before, roomy);
    expect(sent.map((request) => request.query.page ?? "1")).toEqual(["1", "2"]);
    expect(sent.every((request) => request.query.per_page === "100")).toBe(true);
    // Every page, not only the first, goes through egress with the credential.
    expect(sent.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${TEST_TOKEN}`,
      `Bearer ${TEST_TOKEN}`,
    ]);
    expect(result.ok && result.truncated).toBe(true);
    if (result.ok) expect((result.data as { items: unknown[] }).items).toHaveLength(120);
  });

  it("caps a limit above the deployment's maxItems", async () => {
    const before = gh.fake.requests.length;
    const result = await list({ repo: "busy", limit: 500 });
    expect(sentSince(before)).toHaveLength(1);
    expect(result.ok && result.truncated).toBe(true);
    if (result.ok) expect((result.data as { items: unknown[] }).items).toHaveLength(100);
  });

  it("walks every page to the last when the bound allows", async () => {
    const before = roomy.fake.requests.length;
    const result = await list({ repo: "busy" }, roomy);
    expect(sentSince(before, roomy).map((request) => request.query.page ?? "1")).toEqual(["1", "2"]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBeFalsy();
    const { items } = result.data as { items: { number: number }[] };
    expect(items).toHaveLength(130);
    expect(new Set(items.map((pull) => pull.number)).size).toBe(130);
  });

  it("reports GitHub's primary rate limit with the wait until its reset", async () => {
    const reset = Math.floor(Date.now() / 1000) + 600;
    gh.fake.failNext("GET", "/repos/octocat/hello-world/pulls", {
      status: 403,
      body: {
        message: "API rate limit exceeded for user ID 1.",
        documentation_url:
          "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-primary-rate-limits",
      },
      headers: {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-used": "5000",
        "x-ratelimit-reset": String(reset),
      },
    });
    const result = await list({ repo: "hello-world" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_rate_limited");
    expect(result.error.message).toMatch(/primary rate limit/);
    expect(result.error.retryAfterMs).toBeGreaterThan(590_000);
    expect(result.error.retryAfterMs).toBeLessThanOrEqual(600_000);
  });

  it("says a repository it cannot see may not exist or may be out of reach", async () => {
    const result = await list({ repo: "no-such-repo" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/pull requests of octocat\/no-such-repo.*no access/);
  });
});
