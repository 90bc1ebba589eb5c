import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { releaseRoutes } from "../fake/releases-routes.js";

let gh: GithubHarness;
let roomy: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([releaseRoutes]);
  roomy = await startGithubHarness([releaseRoutes], { maxItems: 200 });
});
afterAll(async () => {
  await gh.close();
  await roomy.close();
});

const list = (input: Record<string, unknown>, harness = gh) =>
  harness.seam.call(harness.context(), "github_list_releases", { owner: "octocat", ...input });

describe("github_list_releases", () => {
  it("GETs the releases, drafts included, newest first, one line each", async () => {
    const before = gh.fake.requests.length;
    const result = await list({ repo: "hello-world" });
    const sent = gh.fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe("GET");
    expect(sent[0]?.path).toBe("/repos/octocat/hello-world/releases");
    expect(sent[0]?.query.per_page).toBe("100");
    expect(sent[0]?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { items } = result.data as { items: { id: number }[] };
    expect(items.map((release) => release.id)).toEqual([4, 3, 2, 1]);
    expect(items[0]).toMatchObject({ tagName: "v2.0.0", draft: true, publishedAt: null, assetCount: 0 });
    expect(items[3]).toMatchObject({
      id: 1,
      tagName: "v1.0.0",
      name: "First",
      draft: false,
      prerelease: false,
      author: "octocat",
      targetCommitish: "main",
      assetCount: 1,
      url: "https://github.com/octocat/hello-world/releases/tag/v1.0.0",
    });
    expect(result.content).toContain('v1.2.0-rc.1 "v1.2.0-rc.1" [prerelease] published');
    expect(result.content).toContain('v2.0.0 "v2.0.0" [draft] unpublished by octocat (id 4)');
    expect(result.provenance).toEqual({
      source: "https://github.com/octocat/hello-world/releases",
      trusted: false,
    });
  });

  it("stops at the limit and says there are more", async () => {
    const before = gh.fake.requests.length;
    const result = await list({ repo: "hello-world", limit: 2 });
    expect(gh.fake.requests.slice(before).map((request) => request.query.per_page)).toEqual(["2"]);
    expect(result.ok && result.truncated).toBe(true);
    if (result.ok)
      expect(result.content).toContain("the first 2 releases of octocat/hello-world; there are more");
  });

  it("follows GitHub's Link header to the last page when the bound allows", async () => {
    const before = roomy.fake.requests.length;
    const result = await list({ repo: "busy" }, roomy);
    const sent = roomy.fake.requests.slice(before);
    expect(sent.map((request) => request.query.page ?? "1")).toEqual(["1", "2"]);
    expect(sent.every((request) => request.headers.authorization === `Bearer ${TEST_TOKEN}`)).toBe(true);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBeFalsy();
    expect((result.data as { items: unknown[] }).items).toHaveLength(105);
  });

  it("answers an empty list without provenance, there being no text of anyone's", async () => {
    const result = await list({ repo: "quiet" });
    expect(result.ok && result.data).toEqual({ items: [], complete: true });
    if (result.ok) expect(result.provenance).toBeUndefined();
  });

  it("reports a 429 from GitHub's primary rate limit with the wait until its reset", async () => {
    gh.fake.failNext("GET", "/repos/octocat/hello-world/releases", {
      status: 429,
      body: {
        message: "API rate limit exceeded for installation ID 1.",
        documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
      },
      headers: {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 300),
      },
    });
    const result = await list({ repo: "hello-world" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_rate_limited");
    expect(result.error.retryAfterMs).toBeGreaterThan(290_000);
  });

  it("says a repository it cannot see may be out of reach", async () => {
    const result = await list({ repo: "nope" });
    expect(result.ok || result.error.message).toMatch(/releases of octocat\/nope.*no access/);
  });
});
