import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { pullRoutes } from "../fake/pulls-routes.js";

let gh: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([pullRoutes]);
});
afterAll(() => gh.close());

const open = (input: Record<string, unknown>) =>
  gh.callApproved("github_create_pull_request", { owner: "octocat", repo: "hello-world", ...input });

describe("github_create_pull_request", () => {
  it("parks for approval and sends nothing to GitHub until it is approved", async () => {
    const before = gh.fake.requests.length;
    const parked = await gh.seam.call(gh.context(), "github_create_pull_request", {
      owner: "octocat",
      repo: "hello-world",
      head: "new-feature",
      base: "main",
      title: "Parked",
    });
    expect(parked.ok || parked.error.code).toBe("approval_required");
    expect(gh.fake.requests.length).toBe(before);
  });

  it("POSTs head, base, title, body and draft, and answers the new pull request, mergeability still computing", async () => {
    const before = gh.fake.requests.length;
    const result = await open({
      head: "new-feature",
      base: "main",
      title: "  Add a new feature  ",
      body: "It does **more**.",
      draft: true,
    });
    const sent = gh.fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe("POST");
    expect(sent[0]?.path).toBe("/repos/octocat/hello-world/pulls");
    expect(sent[0]?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent[0]?.body).toEqual({
      head: "new-feature",
      base: "main",
      title: "Add a new feature",
      body: "It does **more**.",
      draft: true,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      number: 6,
      title: "Add a new feature",
      state: "open",
      draft: true,
      author: "octocat",
      head: { ref: "new-feature" },
      base: { ref: "main" },
      mergeable: null,
      mergeableState: "unknown",
    });
    expect((result.data as { mergeNote: string }).mergeNote).toMatch(/still computing.*again/);
    expect(result.provenance).toEqual({
      source: "https://github.com/octocat/hello-world/pull/6",
      trusted: false,
    });

    // GitHub's background job has finished by the next read, as its reference describes.
    const reread = await gh.seam.call(gh.context(), "github_get_pull_request", {
      owner: "octocat",
      repo: "hello-world",
      pull_number: 6,
    });
    expect(reread.ok && reread.data).toMatchObject({ mergeable: null });
    const settled = await gh.seam.call(gh.context(), "github_get_pull_request", {
      owner: "octocat",
      repo: "hello-world",
      pull_number: 6,
    });
    expect(settled.ok && settled.data).toMatchObject({ mergeable: true, mergeableState: "draft" });
  });

  it("sends no body or draft when none is given", async () => {
    const before = gh.fake.requests.length;
    await open({ head: "octocat:other-feature", base: "main", title: "Other" });
    expect(gh.fake.requests.slice(before)[0]?.body).toEqual({
      head: "octocat:other-feature",
      base: "main",
      title: "Other",
    });
  });

  it("passes on GitHub's 422 when the head already has an open pull request into that base", async () => {
    const result = await open({ head: "feature-widget", base: "main", title: "Again" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toContain("A pull request already exists for octocat:feature-widget.");
  });

  it("passes on GitHub's 422 naming the field for a head branch that was never pushed", async () => {
    const result = await open({ head: "never-pushed", base: "trunk", title: "Nothing" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toMatch(/PullRequest\.base is invalid; PullRequest\.head is invalid/);
  });

  it("passes on GitHub's 422 when the head has no commits beyond the base", async () => {
    const result = await open({ head: "empty-branch", base: "main", title: "Empty" });
    expect(result.ok || result.error.message).toContain("No commits between main and empty-branch");
  });

  it("refuses names git would refuse, and a title past GitHub's limit, before any request", async () => {
    const before = gh.fake.requests.length;
    for (const input of [
      { head: "../../orgs", base: "main", title: "x" },
      { head: "feature..x", base: "main", title: "x" },
      { head: "feature", base: "main?x=1", title: "x" },
      { head: "bad owner:feature", base: "main", title: "x" },
      { head: "feature", base: "main", title: "x".repeat(257) },
      { head: "feature", base: "main", title: "   " },
    ]) {
      const result = await gh.seam.call(gh.context(), "github_create_pull_request", {
        owner: "octocat",
        repo: "hello-world",
        ...input,
      });
      expect(result.ok || result.error.code, JSON.stringify(input)).toBe("invalid_input");
    }
    expect(gh.fake.requests.length).toBe(before);
  });
});
