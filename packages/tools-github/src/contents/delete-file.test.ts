import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentsRoutes } from "../fake/contents-routes.js";
import { FakeRepository, HUBOT } from "../fake/git-repository.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const repository = new FakeRepository({ "README.md": "# Hi\n", "old.txt": "old\n", "keep.txt": "keep\n" });
beforeAll(async () => {
  gh = await startGithubHarness([contentsRoutes(repository)]);
});
afterAll(() => gh.close());

const remove = (input: Record<string, unknown>) =>
  gh.callApproved("github_delete_file", {
    owner: "octocat",
    repo: "hello-world",
    message: "Remove it",
    ...input,
  });

describe("github_delete_file", () => {
  it("is destructive: it parks for approval and sends nothing until approved", async () => {
    const tool = gh.registry.view().get("github_delete_file");
    expect(tool?.effect).toBe("destructive");
    const before = gh.fake.requests.length;
    const parked = await gh.seam.call(gh.context(), "github_delete_file", {
      owner: "octocat",
      repo: "hello-world",
      path: "old.txt",
      message: "Remove",
    });
    expect(parked.ok || parked.error.code).toBe("approval_required");
    expect(gh.fake.requests.length).toBe(before);
  });

  it("looks the sha up and DELETEs with it, once approved", async () => {
    const sha = repository.resolve("main")?.tree.get("old.txt")?.sha;
    const before = gh.fake.requests.length;
    const result = await remove({ path: "old.txt" });
    const [lookup, deletion] = gh.fake.requests.slice(before);
    expect(lookup).toMatchObject({ method: "GET", path: "/repos/octocat/hello-world/contents/old.txt" });
    expect(deletion).toMatchObject({
      method: "DELETE",
      path: "/repos/octocat/hello-world/contents/old.txt",
      body: { message: "Remove it", sha },
    });
    expect(deletion?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    const head = repository.resolve("main");
    expect(result.ok && result.data).toEqual({
      path: "old.txt",
      deleted: true,
      branch: null,
      commit: { sha: head?.sha, url: `https://github.com/octocat/hello-world/commit/${head?.sha}` },
    });
    expect(head?.tree.has("old.txt")).toBe(false);
  });

  it("fails clearly on a file that is not there, and sends no DELETE", async () => {
    const before = gh.fake.requests.length;
    const result = await remove({ path: "missing.txt", branch: "main" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({ code: "upstream_error", retryable: false });
      expect(result.error.message).toMatch(
        /no file missing\.txt in octocat\/hello-world on main.*nothing was deleted/,
      );
    }
    expect(gh.fake.requests.slice(before).map((request) => request.method)).toEqual(["GET"]);
  });

  it("reports a file changed since the lookup as a conflict to retry, and deletes nothing", async () => {
    repository.afterNextRead("keep.txt", () =>
      repository.commit("main", "Edit", { "keep.txt": "edited\n" }, HUBOT),
    );
    const result = await remove({ path: "keep.txt" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({ retryable: true, details: { status: 409, conflict: true } });
      expect(result.error.message).toMatch(/github_delete_file again/);
    }
    expect(repository.resolve("main")?.tree.get("keep.txt")?.bytes.toString()).toBe("edited\n");
  });

  it("refuses to delete a directory", async () => {
    repository.commit("main", "Add a folder", { "dir/a.txt": "a\n" });
    const result = await remove({ path: "dir" });
    expect(result.ok || result.error.code).toBe("invalid_input");
    expect(repository.resolve("main")?.tree.has("dir/a.txt")).toBe(true);
  });
});
