import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actionsRoutes, FakeActions } from "../fake/actions-routes.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const actions = new FakeActions();
const deploy = actions.addWorkflow({
  name: "Deploy",
  path: ".github/workflows/deploy.yml",
  dispatchable: true,
});
actions.addWorkflow({ name: "CI", path: ".github/workflows/ci.yml", dispatchable: false });
beforeAll(async () => {
  gh = await startGithubHarness([actionsRoutes(actions)]);
});
afterAll(() => gh.close());

const dispatch = (input: Record<string, unknown>) =>
  gh.callApproved("github_dispatch_workflow", {
    owner: "octocat",
    repo: "hello-world",
    ref: "main",
    ...input,
  });

describe("github_dispatch_workflow", () => {
  it("sends the ref and inputs, asks for the run's details, and returns the new run", async () => {
    const result = await dispatch({
      workflow: "deploy.yml",
      inputs: { environment: "staging", dry_run: true },
    });
    const sent = gh.fake.requests.at(-1);
    expect(sent).toMatchObject({
      method: "POST",
      path: "/repos/octocat/hello-world/actions/workflows/deploy.yml/dispatches",
      body: { ref: "main", inputs: { environment: "staging", dry_run: true }, return_run_details: true },
    });
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    const run = actions.runs.at(-1);
    expect(actions.dispatches).toEqual([
      { workflowId: deploy.id, ref: "main", inputs: { environment: "staging", dry_run: true } },
    ]);
    expect(result.ok && result.data).toEqual({
      dispatched: true,
      workflow: "deploy.yml",
      ref: "main",
      runId: run?.id,
      url: `https://github.com/octocat/hello-world/actions/runs/${run?.id}`,
    });
  });

  it("says when GitHub answers 204 without the run, and how to find it", async () => {
    gh.fake.failNext("POST", `/repos/octocat/hello-world/actions/workflows/${deploy.id}/dispatches`, {
      status: 204,
    });
    const result = await dispatch({ workflow: deploy.id });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({ dispatched: true, runId: null, url: null });
    expect(result.content).toMatch(/github_list_workflow_runs \(event workflow_dispatch\)/);
  });

  it("explains GitHub's 422 for a workflow with no workflow_dispatch trigger", async () => {
    const result = await dispatch({ workflow: "ci.yml" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("invalid_input");
      expect(result.error.message).toMatch(/ci\.yml has no workflow_dispatch trigger in its file on main/);
      expect(result.error.details).toMatchObject({ status: 422 });
    }
  });

  it("passes on GitHub's 422 for a ref that does not exist", async () => {
    const result = await dispatch({ workflow: "deploy.yml", ref: "nowhere" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("invalid_input");
      expect(result.error.message).toMatch(/No ref found for: nowhere/);
    }
  });

  it("refuses too many inputs, a bad input id or a workflow path before any request", async () => {
    const many = Object.fromEntries(Array.from({ length: 26 }, (_, index) => [`input_${index}`, "x"]));
    for (const input of [
      { workflow: "deploy.yml", inputs: many },
      { workflow: "deploy.yml", inputs: { "bad id": "x" } },
      { workflow: "deploy.yml", inputs: { nested: { a: 1 } } },
      { workflow: "../deploy.yml" },
      { workflow: "deploy.yml", ref: "refs/../x" },
    ]) {
      const before = gh.fake.requests.length;
      const result = await gh.seam.call(gh.context(), "github_dispatch_workflow", {
        owner: "octocat",
        repo: "hello-world",
        ref: "main",
        ...input,
      });
      expect(result.ok || result.error.code).toBe("invalid_input");
      expect(gh.fake.requests.length).toBe(before);
    }
  });
});
