import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { pullRoutes } from "../fake/pulls-routes.js";

let gh: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([pullRoutes]);
});
afterAll(() => gh.close());

const get = (pull_number: number, repo = "hello-world") =>
  gh.seam.call(gh.context(), "github_get_pull_request", { owner: "octocat", repo, pull_number });

describe("github_get_pull_request", () => {
  it("GETs the pull request with the injected credential and returns its branches, SHAs, size and body", async () => {
    const result = await get(1);
    const sent = gh.fake.requests.at(-1);
    expect(sent?.method).toBe("GET");
    expect(sent?.path).toBe("/repos/octocat/hello-world/pulls/1");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      number: 1,
      title: "Add the widget",
      state: "open",
      draft: false,
      merged: false,
      author: "hubot",
      head: { label: "octocat:feature-widget", ref: "feature-widget", repository: "octocat/hello-world" },
      base: { ref: "main", repository: "octocat/hello-world" },
      mergeable: true,
      mergeableState: "clean",
      mergeNote: "it can be merged",
      body: "The widget, as discussed.",
      bodyTruncated: false,
      url: "https://github.com/octocat/hello-world/pull/1",
    });
    const data = result.data as { head: { sha: string }; base: { sha: string }; changedFiles: number };
    expect(data.head.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(data.head.sha).not.toBe(data.base.sha);
    expect(typeof data.changedFiles).toBe("number");
    expect(result.provenance).toEqual({
      source: "https://github.com/octocat/hello-world/pull/1",
      trusted: false,
    });
  });

  it("says what blocks a pull request with merge conflicts", async () => {
    const result = await get(3);
    expect(result.ok && result.data).toMatchObject({ mergeable: false, mergeableState: "dirty" });
    if (result.ok) expect((result.data as { mergeNote: string }).mergeNote).toMatch(/merge conflicts/);
  });

  it("says a 404 may mean no access, naming the pull request", async () => {
    const result = await get(999);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.message).toMatch(/octocat\/hello-world#999.*no access/);
  });

  it("refuses a pull request number that is not a positive integer before any request", async () => {
    const before = gh.fake.requests.length;
    const result = await gh.seam.call(gh.context(), "github_get_pull_request", {
      owner: "octocat",
      repo: "hello-world",
      pull_number: "1/../../2",
    });
    expect(result.ok || result.error.code).toBe("invalid_input");
    expect(gh.fake.requests.length).toBe(before);
  });

  it("maps GitHub's 5xx to a retryable upstream error", async () => {
    gh.fake.failNext("GET", "/repos/octocat/hello-world/pulls/1", {
      status: 503,
      body: { message: "Service Unavailable" },
    });
    const result = await get(1);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: "upstream_error", retryable: true });
  });
});
