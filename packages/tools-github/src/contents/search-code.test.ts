import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentsRoutes } from "../fake/contents-routes.js";
import { FakeRepository } from "../fake/git-repository.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const repository = new FakeRepository({
  "README.md": "# Hello\n",
  "src/a.ts": "const needle = 1;\n",
  "src/b.ts": "// another needle here\n",
  "src/c.ts": "export const needle = 3;\n",
  "src/d.ts": "nothing to find\n",
});
beforeAll(async () => {
  gh = await startGithubHarness([contentsRoutes(repository)]);
});
afterAll(() => gh.close());

const search = (input: Record<string, unknown>) => gh.seam.call(gh.context(), "github_search_code", input);

describe("github_search_code", () => {
  it("scopes the query to the repository given and returns each file with the lines that matched", async () => {
    const result = await search({ query: "needle", owner: "octocat", repo: "hello-world" });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/search/code");
    expect(sent?.query).toEqual({ q: "needle repo:octocat/hello-world", per_page: "100", page: "1" });
    expect(sent?.headers.accept).toBe("application/vnd.github.text-match+json");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const data = result.data as { items: { path: string }[]; totalCount: number; incompleteResults: boolean };
    expect(data.items.map((match) => match.path)).toEqual(["src/a.ts", "src/b.ts", "src/c.ts"]);
    expect(data.items[1]).toEqual({
      repository: "octocat/hello-world",
      path: "src/b.ts",
      sha: repository.resolve("main")?.tree.get("src/b.ts")?.sha,
      url: "https://github.com/octocat/hello-world/blob/main/src/b.ts",
      lines: ["// another needle here"],
    });
    expect(result.content).toContain(
      ["3 of 3 matching files:", "octocat/hello-world src/a.ts", "  | const needle = 1;"].join("\n"),
    );
    expect(data.totalCount).toBe(3);
    expect(data.incompleteResults).toBe(false);
    expect(result.provenance).toEqual({
      source: "https://github.com/search?type=code&q=needle%20repo%3Aoctocat%2Fhello-world",
      trusted: false,
    });
  });

  it("asks for only the page the limit needs, and says more exist", async () => {
    const before = gh.fake.requests.length;
    const result = await search({ query: "needle repo:octocat/hello-world", limit: 2 });
    const sent = gh.fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.query).toMatchObject({ per_page: "2", page: "1" });
    expect(result.ok && result.truncated).toBe(true);
    expect(result.ok && result.data).toMatchObject({ complete: false, totalCount: 3 });
    expect(result.ok && result.content).toContain(
      "the first 2 of 3 matching files; there are more: narrow the query or raise the limit:",
    );
  });

  it("refuses a query with no repository, organisation or user scope before spending a request", async () => {
    const before = gh.fake.requests.length;
    const result = await search({ query: "needle language:ts" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("invalid_input");
      expect(result.error.message).toMatch(/repo:OWNER\/NAME, org:NAME or user:NAME/);
    }
    const half = await search({ query: "needle", owner: "octocat" });
    expect(half.ok || half.error.code).toBe("invalid_input");
    expect(gh.fake.requests.length).toBe(before);
  });

  it("passes GitHub's own 422 on with the field it names", async () => {
    gh.fake.failNext("GET", "/search/code", {
      status: 422,
      body: {
        message: "Validation Failed",
        errors: [
          {
            message:
              "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.",
            resource: "Search",
            field: "q",
            code: "invalid",
          },
        ],
        documentation_url: "https://docs.github.com/v3/search/",
      },
    });
    const result = await search({ query: "needle repo:octocat/secret" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("invalid_input");
      expect(result.error.message).toMatch(/q: The listed users and repositories cannot be searched/);
    }
  });

  it("says code search's own limit (10 a minute) is spent and when it lifts", async () => {
    const reset = Math.floor(Date.now() / 1000) + 45;
    gh.fake.failNext("GET", "/search/code", {
      status: 403,
      headers: {
        "x-ratelimit-limit": "10",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-used": "10",
        "x-ratelimit-reset": String(reset),
        "x-ratelimit-resource": "code_search",
      },
      body: {
        message: "API rate limit exceeded for user ID 1.",
        documentation_url:
          "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-the-rate-limit-for-the-rest-api",
      },
    });
    const result = await search({ query: "needle", owner: "octocat", repo: "hello-world" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("upstream_rate_limited");
      expect(result.error.message).toMatch(/code_search rate limit is spent \(10 requests a minute/);
      expect(result.error.retryAfterMs).toBeGreaterThan(30_000);
      expect(result.error.retryAfterMs).toBeLessThanOrEqual(45_000);
    }
  });
});
