import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeRepository } from "../fake/git-repository.js";
import { gitRoutes } from "../fake/git-routes.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const repository = new FakeRepository();
const first = repository.resolve("main")?.sha ?? "";
const head = repository.commit("main", "Second", { "b.txt": "b\n" }).sha;
beforeAll(async () => {
  gh = await startGithubHarness([gitRoutes(repository)]);
});
afterAll(() => gh.close());

const create = (input: Record<string, unknown>) =>
  gh.callApproved("github_create_branch", { owner: "octocat", repo: "hello-world", ...input });

describe("github_create_branch", () => {
  it("resolves the source branch's head, then creates refs/heads/NAME at it", async () => {
    const before = gh.fake.requests.length;
    const result = await create({ branch: "feature/login", from_branch: "main" });
    const [lookup, creation] = gh.fake.requests.slice(before);
    expect(lookup).toMatchObject({ method: "GET", path: "/repos/octocat/hello-world/git/ref/heads/main" });
    expect(creation).toMatchObject({
      method: "POST",
      path: "/repos/octocat/hello-world/git/refs",
      body: { ref: "refs/heads/feature/login", sha: head },
    });
    expect(creation?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok && result.data).toEqual({
      branch: "feature/login",
      ref: "refs/heads/feature/login",
      sha: head,
    });
    expect(repository.branches.get("feature/login")?.head).toBe(head);
  });

  it("creates a branch at a commit without a lookup", async () => {
    const before = gh.fake.requests.length;
    const result = await create({ branch: "hotfix", from_sha: first });
    expect(gh.fake.requests.slice(before).map((request) => request.method)).toEqual(["POST"]);
    expect(result.ok && result.data).toMatchObject({ sha: first });
  });

  it("says a branch of that name already exists (GitHub's 422 'Reference already exists')", async () => {
    const result = await create({ branch: "hotfix", from_branch: "main" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("invalid_input");
      expect(result.error.message).toMatch(/a branch named hotfix already exists in octocat\/hello-world/);
    }
    expect(repository.branches.get("hotfix")?.head).toBe(first);
  });

  it("says the commit does not exist (GitHub's 422 'Object does not exist')", async () => {
    const result = await create({ branch: "nowhere", from_sha: "1".repeat(40) });
    expect(result.ok || result.error.message).toMatch(/has no commit 1{40}/);
  });

  it("says a source branch that is not there may be out of reach", async () => {
    const result = await create({ branch: "x", from_branch: "no-such" });
    expect(result.ok || result.error.message).toMatch(/branch no-such of octocat\/hello-world.*no access/);
  });

  it("passes on GitHub's 409 for an empty repository", async () => {
    gh.fake.failNext("POST", "/repos/octocat/hello-world/git/refs", {
      status: 409,
      body: {
        message: "Git Repository is empty.",
        documentation_url: "https://docs.github.com/rest/git/refs#create-a-reference",
        status: "409",
      },
    });
    const result = await create({ branch: "y", from_sha: first });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("upstream_error");
      expect(result.error.message).toMatch(/conflict.*Git Repository is empty/);
    }
  });

  it("refuses an unclear source or a full ref name before any request", async () => {
    for (const input of [
      { branch: "a" },
      { branch: "a", from_branch: "main", from_sha: first },
      { branch: "refs/heads/a", from_branch: "main" },
      { branch: "a b", from_branch: "main" },
      { branch: "a", from_sha: "abc123" },
    ]) {
      const before = gh.fake.requests.length;
      const result = await gh.seam.call(gh.context(), "github_create_branch", {
        owner: "octocat",
        repo: "hello-world",
        ...input,
      });
      expect(result.ok || result.error.code).toBe("invalid_input");
      expect(gh.fake.requests.length).toBe(before);
    }
  });
});
