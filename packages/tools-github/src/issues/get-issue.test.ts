import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { issueRoutes } from "../fake/issues-routes.js";

let gh: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([issueRoutes]);
});
afterAll(() => gh.close());

describe("github_get_issue", () => {
  it("GETs the issue with the credential egress injected, and returns the fields a model needs", async () => {
    const result = await gh.seam.call(gh.context(), "github_get_issue", {
      owner: "octocat",
      repo: "hello-world",
      issue_number: 7,
    });
    expect(result.ok).toBe(true);
    const sent = gh.fake.requests.at(-1);
    expect(sent?.method).toBe("GET");
    expect(sent?.path).toBe("/repos/octocat/hello-world/issues/7");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      number: 7,
      title: "Issue 7",
      state: "open",
      body: "It breaks.",
      labels: ["bug"],
    });
  });

  it("says a 404 may mean no access, and names the issue", async () => {
    const result = await gh.seam.call(gh.context(), "github_get_issue", {
      owner: "octocat",
      repo: "hello-world",
      issue_number: 404,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.message).toMatch(/octocat\/hello-world#404.*no access/);
  });

  it("refuses a hostile repository name before any request", async () => {
    const before = gh.fake.requests.length;
    const result = await gh.seam.call(gh.context(), "github_get_issue", {
      owner: "octocat",
      repo: "../../orgs",
      issue_number: 1,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("invalid_input");
    expect(gh.fake.requests.length).toBe(before);
  });
});
