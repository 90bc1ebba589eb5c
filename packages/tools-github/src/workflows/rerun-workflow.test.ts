import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actionsRoutes, FakeActions } from "../fake/actions-routes.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const actions = new FakeActions();
const ci = actions.addWorkflow({ name: "CI", path: ".github/workflows/ci.yml", dispatchable: true });
const job = (name: string, conclusion: string) => ({
  name,
  status: "completed" as const,
  conclusion,
  steps: [],
  annotations: [],
});
const failed = actions.addRun(ci, {
  conclusion: "failure",
  jobs: [job("build", "success"), job("test", "failure")],
});
const running = actions.addRun(ci, { status: "in_progress", conclusion: null });
beforeAll(async () => {
  gh = await startGithubHarness([actionsRoutes(actions)]);
});
afterAll(() => gh.close());

const rerun = (input: Record<string, unknown>) =>
  gh.callApproved("github_rerun_workflow", { owner: "octocat", repo: "hello-world", ...input });

describe("github_rerun_workflow", () => {
  it("parks for approval, then re-runs only the failed jobs when asked", async () => {
    const before = gh.fake.requests.length;
    const parked = await gh.seam.call(gh.context(), "github_rerun_workflow", {
      owner: "octocat",
      repo: "hello-world",
      run_id: failed.id,
    });
    expect(parked.ok || parked.error.code).toBe("approval_required");
    expect(gh.fake.requests.length).toBe(before);

    const result = await rerun({ run_id: failed.id, failed_only: true });
    const sent = gh.fake.requests.at(-1);
    expect(sent).toMatchObject({
      method: "POST",
      path: `/repos/octocat/hello-world/actions/runs/${failed.id}/rerun-failed-jobs`,
    });
    expect(sent?.body).toBeUndefined();
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok && result.data).toEqual({
      runId: failed.id,
      rerun: "failed jobs",
      url: `https://github.com/octocat/hello-world/actions/runs/${failed.id}`,
    });
    expect(failed.attempt).toBe(2);
    expect(failed.jobs.map((each) => each.conclusion)).toEqual(["success", null]);
  });

  it("re-runs every job, with debug logging when asked", async () => {
    failed.status = "completed";
    const result = await rerun({ run_id: failed.id, debug_logging: true });
    expect(gh.fake.requests.at(-1)).toMatchObject({
      path: `/repos/octocat/hello-world/actions/runs/${failed.id}/rerun`,
      body: { enable_debug_logging: true },
    });
    expect(result.ok && result.data).toMatchObject({ rerun: "all jobs" });
    expect(failed.jobs.map((each) => each.conclusion)).toEqual([null, null]);
  });

  it("passes on GitHub's refusal of a run still in progress", async () => {
    const result = await rerun({ run_id: running.id });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("upstream_error");
      expect(result.error.message).toMatch(/This workflow is already running/);
    }
    expect(running.attempt).toBe(1);
  });
});
