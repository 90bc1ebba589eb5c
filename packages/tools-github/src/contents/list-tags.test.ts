import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeRepository } from "../fake/git-repository.js";
import { gitRoutes } from "../fake/git-routes.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const repository = new FakeRepository();
beforeAll(async () => {
  gh = await startGithubHarness([gitRoutes(repository)]);
});
afterAll(() => gh.close());

describe("github_list_tags", () => {
  it("lists tag names with the commits they point at", async () => {
    const first = repository.resolve("main")?.sha ?? "";
    const second = repository.commit("main", "Release 2", { VERSION: "2\n" }).sha;
    repository.tags.set("v1.0.0", first);
    repository.tags.set("v2.0.0", second);
    const result = await gh.seam.call(gh.context(), "github_list_tags", {
      owner: "octocat",
      repo: "hello-world",
    });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/tags");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok && result.data).toEqual({
      items: [
        { name: "v2.0.0", sha: second },
        { name: "v1.0.0", sha: first },
      ],
      complete: true,
    });
    expect(result.ok && result.content).toContain(
      `2 tags of octocat/hello-world:\nv2.0.0 at ${second.slice(0, 7)}\nv1.0.0 at ${first.slice(0, 7)}`,
    );
    expect(result.ok && result.provenance).toEqual({
      source: "https://github.com/octocat/hello-world/tags",
      trusted: false,
    });
  });
});
