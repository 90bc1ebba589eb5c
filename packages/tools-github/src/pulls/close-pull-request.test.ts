import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { pullRoutes } from "../fake/pulls-routes.js";

let gh: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([pullRoutes]);
});
afterAll(() => gh.close());

const close = (pull_number: number) =>
  gh.callApproved("github_close_pull_request", { owner: "octocat", repo: "hello-world", pull_number });

describe("github_close_pull_request", () => {
  it("PATCHes the state to closed and answers the pull request, closed and not merged", async () => {
    const result = await close(3);
    const sent = gh.fake.requests.at(-1);
    expect(sent?.method).toBe("PATCH");
    expect(sent?.path).toBe("/repos/octocat/hello-world/pulls/3");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.body).toEqual({ state: "closed" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      number: 3,
      state: "closed",
      merged: false,
      mergeNote: "it is closed without being merged",
    });
    expect((result.data as { closedAt: string | null }).closedAt).not.toBeNull();
  });

  it("says a pull request it cannot find may be out of reach", async () => {
    const result = await close(404);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/octocat\/hello-world#404.*no access/);
  });
});
