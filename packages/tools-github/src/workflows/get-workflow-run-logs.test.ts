import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actionsRoutes, FakeActions } from "../fake/actions-routes.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const actions = new FakeActions();
const ci = actions.addWorkflow({ name: "CI", path: ".github/workflows/ci.yml", dispatchable: true });
const steps = (failing: string) => [
  { number: 1, name: "Set up job", conclusion: "success" },
  { number: 2, name: failing, conclusion: "failure" },
  { number: 3, name: "Complete job", conclusion: "skipped" },
];
const run = actions.addRun(ci, {
  conclusion: "failure",
  jobs: [
    { name: "build", status: "completed", conclusion: "success", steps: [], annotations: [] },
    {
      name: "test",
      status: "completed",
      conclusion: "failure",
      steps: steps("Run npm test"),
      annotations: [
        {
          path: "src/login.test.ts",
          line: 42,
          level: "failure",
          title: "login › refuses a bad password",
          message: "expected 401, got 200",
        },
        {
          path: ".github",
          line: 1,
          level: "failure",
          title: "",
          message: "Process completed with exit code 1.",
        },
      ],
    },
    {
      name: "lint",
      status: "completed",
      conclusion: "cancelled",
      steps: steps("Run biome"),
      annotations: [
        { path: ".github", line: 1, level: "failure", title: "", message: "The operation was canceled." },
      ],
    },
  ],
});
const noisy = actions.addRun(ci, {
  conclusion: "failure",
  jobs: [
    {
      name: "e2e",
      status: "completed",
      conclusion: "failure",
      steps: steps("Run e2e"),
      annotations: Array.from({ length: 25 }, (_, index) => ({
        path: `e2e/spec-${index}.ts`,
        line: index + 1,
        level: "failure" as const,
        title: `spec ${index}`,
        message: "x".repeat(2_000),
      })),
    },
  ],
});
beforeAll(async () => {
  gh = await startGithubHarness([actionsRoutes(actions)]);
});
afterAll(() => gh.close());

const logs = (runId: number) =>
  gh.seam.call(gh.context(), "github_get_workflow_run_logs", {
    owner: "octocat",
    repo: "hello-world",
    run_id: runId,
  });

describe("github_get_workflow_run_logs", () => {
  it("reads the run, its latest jobs, and the annotations of the failed ones only, never a log download", async () => {
    const before = gh.fake.requests.length;
    const result = await logs(run.id);
    const sent = gh.fake.requests.slice(before);
    const [build, test, lint] = run.jobs;
    expect(
      sent.map(
        (request) => `${request.path}${request.query.filter ? `?filter=${request.query.filter}` : ""}`,
      ),
    ).toEqual([
      `/repos/octocat/hello-world/actions/runs/${run.id}`,
      `/repos/octocat/hello-world/actions/runs/${run.id}/jobs?filter=latest`,
      `/repos/octocat/hello-world/check-runs/${test?.id}/annotations`,
      `/repos/octocat/hello-world/check-runs/${lint?.id}/annotations`,
    ]);
    expect(sent.every((request) => request.headers.authorization === `Bearer ${TEST_TOKEN}`)).toBe(true);
    expect(sent.some((request) => request.path.endsWith("/logs"))).toBe(false);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const data = result.data as {
      run: { id: number; conclusion: string };
      jobs: Record<string, unknown>[];
      failedJobs: number;
      note: string;
    };
    expect(data.run).toMatchObject({ id: run.id, conclusion: "failure" });
    expect(data.failedJobs).toBe(2);
    expect(data.jobs[0]).toMatchObject({
      id: build?.id,
      name: "build",
      conclusion: "success",
      steps: null,
      annotations: null,
    });
    expect(data.jobs[1]).toMatchObject({
      name: "test",
      conclusion: "failure",
      url: `https://github.com/octocat/hello-world/actions/runs/${run.id}/job/${test?.id}`,
      steps: [
        { number: 1, name: "Set up job", conclusion: "success" },
        { number: 2, name: "Run npm test", conclusion: "failure" },
        { number: 3, name: "Complete job", conclusion: "skipped" },
      ],
      annotations: [
        {
          level: "failure",
          path: "src/login.test.ts",
          line: 42,
          title: "login › refuses a bad password",
          message: "expected 401, got 200",
        },
        {
          level: "failure",
          path: ".github",
          line: 1,
          title: "",
          message: "Process completed with exit code 1.",
        },
      ],
      annotationsTruncated: false,
    });
    expect(data.jobs[2]).toMatchObject({
      name: "lint",
      annotations: [{ message: "The operation was canceled." }],
    });
    expect(data.note).toMatch(/raw log text.*another host/);
    expect(result.provenance).toEqual({
      source: `https://github.com/octocat/hello-world/actions/runs/${run.id}`,
      trusted: false,
    });
  });

  it("caps a job's annotations and their messages, and says so", async () => {
    const result = await logs(noisy.id);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBe(true);
    const [job] = (
      result.data as { jobs: { annotations: { message: string }[]; annotationsTruncated: boolean }[] }
    ).jobs;
    expect(job?.annotations).toHaveLength(20);
    expect(job?.annotationsTruncated).toBe(true);
    expect(job?.annotations[0]?.message).toHaveLength(600);
  });

  it("says an unknown run may be out of reach", async () => {
    const result = await logs(12);
    expect(result.ok || result.error.message).toMatch(/workflow run 12 of octocat\/hello-world.*no access/);
  });
});
