import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { pullRoutes } from "../fake/pulls-routes.js";

let gh: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([pullRoutes]);
});
afterAll(() => gh.close());

const update = (input: Record<string, unknown>) =>
  gh.callApproved("github_update_pull_request", { owner: "octocat", repo: "hello-world", ...input });
const lastSent = () => gh.fake.requests.at(-1);

describe("github_update_pull_request", () => {
  it("PATCHes only the fields given", async () => {
    const result = await update({ pull_number: 1, title: "Add the widget, at last" });
    expect(lastSent()?.method).toBe("PATCH");
    expect(lastSent()?.path).toBe("/repos/octocat/hello-world/pulls/1");
    expect(lastSent()?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(lastSent()?.body).toEqual({ title: "Add the widget, at last" });
    expect(result.ok && result.data).toMatchObject({
      number: 1,
      title: "Add the widget, at last",
      body: "The widget, as discussed.",
      base: { ref: "main" },
    });
  });

  it("moves the base, after which GitHub computes mergeability again", async () => {
    const result = await update({ pull_number: 1, base: "release", body: "Now for the release." });
    expect(lastSent()?.body).toEqual({ base: "release", body: "Now for the release." });
    expect(result.ok && result.data).toMatchObject({
      base: { ref: "release" },
      body: "Now for the release.",
      mergeable: null,
    });
  });

  it("reopens a closed pull request", async () => {
    const result = await update({ pull_number: 4, state: "open" });
    expect(lastSent()?.body).toEqual({ state: "open" });
    expect(result.ok && result.data).toMatchObject({ number: 4, state: "open", closedAt: null });
  });

  it("passes on GitHub's 422 for a base branch that does not exist", async () => {
    const result = await update({ pull_number: 1, base: "no-such-branch" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toMatch(/PullRequest\.base is invalid/);
  });

  it("refuses a call that changes nothing, or a state GitHub does not have, before any request", async () => {
    const before = gh.fake.requests.length;
    for (const input of [{ pull_number: 1 }, { pull_number: 1, state: "merged" }]) {
      const result = await gh.seam.call(gh.context(), "github_update_pull_request", {
        owner: "octocat",
        repo: "hello-world",
        ...input,
      });
      expect(result.ok || result.error.code).toBe("invalid_input");
    }
    expect(gh.fake.requests.length).toBe(before);
  });
});
