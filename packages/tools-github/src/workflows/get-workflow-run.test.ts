import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actionsRoutes, FakeActions } from "../fake/actions-routes.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const actions = new FakeActions();
const ci = actions.addWorkflow({ name: "CI", path: ".github/workflows/ci.yml", dispatchable: true });
const run = actions.addRun(ci, { title: "Fix login", conclusion: "failure", attempt: 2, actor: "hubot" });
beforeAll(async () => {
  gh = await startGithubHarness([actionsRoutes(actions)]);
});
afterAll(() => gh.close());

describe("github_get_workflow_run", () => {
  it("reads one run with its workflow file, trigger and commit", async () => {
    const result = await gh.seam.call(gh.context(), "github_get_workflow_run", {
      owner: "octocat",
      repo: "hello-world",
      run_id: run.id,
    });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.path).toBe(`/repos/octocat/hello-world/actions/runs/${run.id}`);
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      id: run.id,
      workflow: "CI",
      title: "Fix login",
      attempt: 2,
      conclusion: "failure",
      workflowPath: ".github/workflows/ci.yml",
      triggeredBy: "hubot",
      commitMessage: "Fix login\n\nThe commit's body.",
      pullRequests: [],
      startedAt: run.createdAt,
    });
    expect(result.provenance).toEqual({
      source: `https://github.com/octocat/hello-world/actions/runs/${run.id}`,
      trusted: false,
    });
  });

  it("says an unknown run may be out of reach, and refuses a run id that is no id", async () => {
    const missing = await gh.seam.call(gh.context(), "github_get_workflow_run", {
      owner: "octocat",
      repo: "hello-world",
      run_id: 1,
    });
    expect(missing.ok || missing.error.message).toMatch(/workflow run 1 of octocat\/hello-world.*no access/);
    const before = gh.fake.requests.length;
    const bad = await gh.seam.call(gh.context(), "github_get_workflow_run", {
      owner: "octocat",
      repo: "hello-world",
      run_id: "1/../../secrets",
    });
    expect(bad.ok || bad.error.code).toBe("invalid_input");
    expect(gh.fake.requests.length).toBe(before);
  });
});
