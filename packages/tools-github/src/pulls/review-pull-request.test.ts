import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { pullRoutes } from "../fake/pulls-routes.js";

let gh: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([pullRoutes]);
});
afterAll(() => gh.close());

const review = (input: Record<string, unknown>) =>
  gh.callApproved("github_review_pull_request", { owner: "octocat", repo: "hello-world", ...input });

describe("github_review_pull_request", () => {
  it("POSTs an approval and answers the review's id, state, commit and link", async () => {
    const result = await review({ pull_number: 1, event: "APPROVE" });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.method).toBe("POST");
    expect(sent?.path).toBe("/repos/octocat/hello-world/pulls/1/reviews");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.body).toEqual({ event: "APPROVE" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      id: 81,
      state: "APPROVED",
      author: "octocat",
      url: "https://github.com/octocat/hello-world/pull/1#pullrequestreview-81",
    });
    expect((result.data as { commitId: string }).commitId).toMatch(/^[0-9a-f]{40}$/);
  });

  it("requests changes with the body GitHub requires", async () => {
    const result = await review({
      pull_number: 3,
      event: "REQUEST_CHANGES",
      body: "Please resolve the conflicts.",
    });
    expect(gh.fake.requests.at(-1)?.body).toEqual({
      event: "REQUEST_CHANGES",
      body: "Please resolve the conflicts.",
    });
    expect(result.ok && result.data).toMatchObject({ state: "CHANGES_REQUESTED" });
  });

  it("refuses REQUEST_CHANGES or COMMENT without a body before any request, as GitHub would", async () => {
    const before = gh.fake.requests.length;
    for (const input of [
      { event: "REQUEST_CHANGES" },
      { event: "COMMENT", body: "  \n " },
      { event: "DISMISS", body: "no" },
    ]) {
      const result = await gh.seam.call(gh.context(), "github_review_pull_request", {
        owner: "octocat",
        repo: "hello-world",
        pull_number: 1,
        ...input,
      });
      expect(result.ok || result.error.code).toBe("invalid_input");
    }
    expect(gh.fake.requests.length).toBe(before);
  });

  it("the fake refuses a COMMENT without a body with GitHub's 422, the rule the tool applies first", async () => {
    const response = await fetch(`${gh.fake.url}/repos/octocat/hello-world/pulls/1/reviews`, {
      method: "POST",
      headers: { "user-agent": "test", "content-type": "application/json" },
      body: JSON.stringify({ event: "COMMENT" }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      message: "Unprocessable Entity",
      errors: ["You need to leave a comment indicating the requested changes."],
    });
  });

  it("explains GitHub's 422 for approving or requesting changes on the credential's own pull request", async () => {
    for (const input of [{ event: "APPROVE" }, { event: "REQUEST_CHANGES", body: "Not yet." }]) {
      const result = await review({ pull_number: 2, ...input });
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe("invalid_input");
      expect(result.error.message).toMatch(/opened this pull request.*Leave a COMMENT review instead/);
      expect(JSON.stringify(result.error.details?.errors)).toMatch(/your own pull request/);
    }
  });

  it("comments on the credential's own pull request, which GitHub allows", async () => {
    const result = await review({ pull_number: 2, event: "COMMENT", body: "Notes for reviewers." });
    expect(result.ok && result.data).toMatchObject({ state: "COMMENTED" });
  });
});
