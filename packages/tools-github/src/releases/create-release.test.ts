import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { releaseRoutes } from "../fake/releases-routes.js";

let gh: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([releaseRoutes]);
});
afterAll(() => gh.close());

const create = (input: Record<string, unknown>) =>
  gh.callApproved("github_create_release", { owner: "octocat", repo: "hello-world", ...input });

describe("github_create_release", () => {
  it("parks for approval and sends nothing until approved", async () => {
    const before = gh.fake.requests.length;
    const parked = await gh.seam.call(gh.context(), "github_create_release", {
      owner: "octocat",
      repo: "hello-world",
      tag_name: "v9.0.0",
    });
    expect(parked.ok || parked.error.code).toBe("approval_required");
    expect(gh.fake.requests.length).toBe(before);
  });

  it("POSTs the tag, target, name, notes and flags, and answers the published release", async () => {
    const result = await create({
      tag_name: "v1.3.0",
      target_commitish: "main",
      name: "Gadgets",
      body: "Now with gadgets.",
      prerelease: true,
    });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.method).toBe("POST");
    expect(sent?.path).toBe("/repos/octocat/hello-world/releases");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.body).toEqual({
      tag_name: "v1.3.0",
      target_commitish: "main",
      name: "Gadgets",
      body: "Now with gadgets.",
      prerelease: true,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      tagName: "v1.3.0",
      name: "Gadgets",
      body: "Now with gadgets.",
      draft: false,
      prerelease: true,
      targetCommitish: "main",
      assets: [],
      url: "https://github.com/octocat/hello-world/releases/tag/v1.3.0",
    });
    expect((result.data as { publishedAt: string | null }).publishedAt).not.toBeNull();
  });

  it("creates a draft, which is unpublished and found by id, not by tag", async () => {
    const result = await create({ tag_name: "v3.0.0", target_commitish: "release-2.x", draft: true });
    expect(gh.fake.requests.at(-1)?.body).toEqual({
      tag_name: "v3.0.0",
      target_commitish: "release-2.x",
      draft: true,
    });
    expect(result.ok && result.data).toMatchObject({ draft: true, publishedAt: null });
    if (!result.ok) return;
    const byTag = await gh.seam.call(gh.context(), "github_get_release", {
      owner: "octocat",
      repo: "hello-world",
      tag: "v3.0.0",
    });
    expect(byTag.ok).toBe(false);
    const byId = await gh.seam.call(gh.context(), "github_get_release", {
      owner: "octocat",
      repo: "hello-world",
      release_id: (result.data as { id: number }).id,
    });
    expect(byId.ok && byId.data).toMatchObject({ tagName: "v3.0.0", draft: true });
  });

  it("explains GitHub's 422 for a tag that already has a release", async () => {
    const result = await create({ tag_name: "v1.0.0", name: "Again" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toMatch(
      /tag v1\.0\.0 of octocat\/hello-world already has a release.*github_get_release/,
    );
    expect(result.error.details?.errors).toEqual([
      { resource: "Release", code: "already_exists", field: "tag_name" },
    ]);
  });

  it("passes on GitHub's 422 for a target that is neither a branch nor a commit", async () => {
    const result = await create({ tag_name: "v4.0.0", target_commitish: "no-such-branch" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toMatch(/Release\.target_commitish is invalid/);
  });

  it("refuses a tag git would refuse, and notes past GitHub's 125,000 characters, before any request", async () => {
    const before = gh.fake.requests.length;
    for (const input of [
      { tag_name: "v1..0" },
      { tag_name: "v1 0" },
      { tag_name: "v5.0.0", body: "x".repeat(125_001) },
    ]) {
      const result = await gh.seam.call(gh.context(), "github_create_release", {
        owner: "octocat",
        repo: "hello-world",
        ...input,
      });
      expect(result.ok || result.error.code).toBe("invalid_input");
    }
    expect(gh.fake.requests.length).toBe(before);
  });
});
