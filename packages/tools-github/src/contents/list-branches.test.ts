import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeRepository } from "../fake/git-repository.js";
import { gitRoutes } from "../fake/git-routes.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const repository = new FakeRepository();
const head = repository.resolve("main")?.sha ?? "";
for (const name of ["release", "feature/a", "feature/b"]) {
  repository.branches.set(name, { name, head, protected: name === "release" });
}
beforeAll(async () => {
  gh = await startGithubHarness([gitRoutes(repository)]);
});
afterAll(() => gh.close());

describe("github_list_branches", () => {
  it("lists names, head shas and protection, and filters on protection", async () => {
    const result = await gh.seam.call(gh.context(), "github_list_branches", {
      owner: "octocat",
      repo: "hello-world",
      protected: true,
    });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/branches");
    expect(sent?.query).toMatchObject({ protected: "true" });
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok && result.data).toEqual({
      items: [
        { name: "main", sha: head, protected: true },
        { name: "release", sha: head, protected: true },
      ],
      complete: true,
    });
    expect(result.ok && result.content).toContain(
      [
        "2 branches of octocat/hello-world:",
        `main at ${head.slice(0, 7)} (protected)`,
        `release at ${head.slice(0, 7)} (protected)`,
      ].join("\n"),
    );
  });

  it("stops at the limit after one page and says more exist", async () => {
    const before = gh.fake.requests.length;
    const result = await gh.seam.call(gh.context(), "github_list_branches", {
      owner: "octocat",
      repo: "hello-world",
      limit: 3,
    });
    expect(gh.fake.requests.length - before).toBe(1);
    expect(gh.fake.requests.at(-1)?.query).toEqual({ per_page: "3" });
    expect(result.ok && result.truncated).toBe(true);
    expect(
      result.ok && (result.data as { items: { name: string }[] }).items.map((branch) => branch.name),
    ).toEqual(["feature/a", "feature/b", "main"]);
    expect(result.ok && result.content).toContain(
      "the first 3 branches of octocat/hello-world; there are more: narrow the query or raise the limit:",
    );
  });

  it("tells GitHub's primary rate limit by its reset time", async () => {
    const reset = Math.floor(Date.now() / 1000) + 600;
    gh.fake.failNext("GET", "/repos/octocat/hello-world/branches", {
      status: 429,
      headers: {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
      },
      body: {
        message: "API rate limit exceeded for user ID 1.",
        documentation_url: "https://docs.github.com/rest",
      },
    });
    const result = await gh.seam.call(gh.context(), "github_list_branches", {
      owner: "octocat",
      repo: "hello-world",
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("upstream_rate_limited");
      expect(result.error.message).toMatch(/primary rate limit/);
      expect(result.error.retryAfterMs).toBeGreaterThan(590_000);
    }
  });
});
