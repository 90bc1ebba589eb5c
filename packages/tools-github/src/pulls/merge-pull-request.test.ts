import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { pullRoutes } from "../fake/pulls-routes.js";

let gh: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([pullRoutes]);
});
afterAll(() => gh.close());

const merge = (input: Record<string, unknown>, repo = "hello-world") =>
  gh.callApproved("github_merge_pull_request", { owner: "octocat", repo, ...input });
const read = async (pull_number: number, repo = "hello-world") => {
  const result = await gh.seam.call(gh.context(), "github_get_pull_request", {
    owner: "octocat",
    repo,
    pull_number,
  });
  if (!result.ok) throw new Error(result.error.message);
  return result.data as { head: { sha: string }; state: string; merged: boolean; mergeNote: string };
};

describe("github_merge_pull_request", () => {
  it("is destructive: it parks for approval and sends nothing until approved", async () => {
    const { head } = await read(1);
    const before = gh.fake.requests.length;
    const parked = await gh.seam.call(gh.context(), "github_merge_pull_request", {
      owner: "octocat",
      repo: "hello-world",
      pull_number: 1,
      sha: head.sha,
    });
    expect(parked.ok || parked.error.code).toBe("approval_required");
    expect(gh.fake.requests.length).toBe(before);
    expect(gh.registry.view().get("github_merge_pull_request")?.effect).toBe("destructive");
  });

  it("PUTs the merge with the method and the head SHA that was read, and the pull request is merged", async () => {
    const { head } = await read(1);
    const result = await merge({ pull_number: 1, merge_method: "squash", sha: head.sha });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.method).toBe("PUT");
    expect(sent?.path).toBe("/repos/octocat/hello-world/pulls/1/merge");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.body).toEqual({ merge_method: "squash", sha: head.sha });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({ merged: true, message: "Pull Request successfully merged" });
    expect((result.data as { sha: string }).sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await read(1)).toMatchObject({ state: "closed", merged: true, mergeNote: "it is merged" });
  });

  it("does not merge a pull request whose head moved since it was read (GitHub's 409), and says to read it again", async () => {
    const moved = "0123456789abcdef0123456789abcdef01234567";
    const result = await merge({ pull_number: 7, sha: moved }, "busy");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.details?.status).toBe(409);
    expect(result.error.message).toContain("Head branch was modified. Review and try the merge again.");
    expect(result.error.message).toMatch(/github_get_pull_request.*new head\.sha/);
    expect(await read(7, "busy")).toMatchObject({ state: "open", merged: false });
  });

  it("explains GitHub's 405 for a pull request that cannot be merged, pointing to what blocks it", async () => {
    const result = await merge({ pull_number: 3, sha: (await read(3)).head.sha });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.details?.status).toBe(405);
    expect(result.error.message).toContain("Pull Request is not mergeable");
    expect(result.error.message).toMatch(/mergeNote says what blocks it/);
  });

  it("explains GitHub's 405 for a merge method the repository does not allow", async () => {
    const result = await merge({ pull_number: 2, merge_method: "rebase", sha: (await read(2)).head.sha });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toContain("Rebase merges are not allowed on this repository.");
    expect(result.error.message).toMatch(/Choose a merge_method the repository allows/);
  });

  it("explains GitHub's 405 for a draft", async () => {
    const result = await merge({ pull_number: 5, sha: (await read(5)).head.sha });
    expect(result.ok || result.error.message).toMatch(/Pull Request is still a draft.*mark ready/);
  });

  it("refuses a merge without the head SHA that was read, naming it, before any request", async () => {
    const before = gh.fake.requests.length;
    const result = await gh.seam.call(gh.context(), "github_merge_pull_request", {
      owner: "octocat",
      repo: "hello-world",
      pull_number: 2,
    });
    expect(result.ok || result.error.code).toBe("invalid_input");
    expect(result.ok || result.error.message).toMatch(/\bsha\b/);
    expect(gh.fake.requests.length).toBe(before);
    expect(await read(2)).toMatchObject({ state: "open", merged: false });
  });

  it("refuses an abbreviated SHA, which GitHub would never match, before any request", async () => {
    const before = gh.fake.requests.length;
    const result = await gh.seam.call(gh.context(), "github_merge_pull_request", {
      owner: "octocat",
      repo: "hello-world",
      pull_number: 2,
      sha: "6dcb09b",
    });
    expect(result.ok || result.error.code).toBe("invalid_input");
    expect(gh.fake.requests.length).toBe(before);
  });
});
