import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actionsRoutes, FakeActions } from "../fake/actions-routes.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const actions = new FakeActions();
const ci = actions.addWorkflow({ name: "CI", path: ".github/workflows/ci.yml", dispatchable: true });
const nightly = actions.addWorkflow({
  name: "Nightly",
  path: ".github/workflows/nightly.yml",
  dispatchable: false,
});
actions.addRun(ci, { title: "Fix login" });
actions.addRun(ci, { title: "Break login", conclusion: "failure" });
actions.addRun(ci, {
  title: "Try on a branch",
  branch: "feature",
  event: "pull_request",
  conclusion: "failure",
});
actions.addRun(nightly, { title: "Nightly", event: "schedule" });
const latest = actions.addRun(ci, {
  title: "Still running",
  status: "in_progress",
  conclusion: null,
  actor: "hubot",
});
beforeAll(async () => {
  gh = await startGithubHarness([actionsRoutes(actions)]);
});
afterAll(() => gh.close());

const list = (input: Record<string, unknown>) =>
  gh.seam.call(gh.context(), "github_list_workflow_runs", {
    owner: "octocat",
    repo: "hello-world",
    ...input,
  });
const titles = (data: unknown) => (data as { items: { title: string }[] }).items.map((run) => run.title);

describe("github_list_workflow_runs", () => {
  it("lists the repository's runs newest first, shaped", async () => {
    const result = await list({});
    const sent = gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/actions/runs");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(titles(result.data)).toEqual([
      "Still running",
      "Nightly",
      "Try on a branch",
      "Break login",
      "Fix login",
    ]);
    expect(result.content).toContain(
      [
        "5 workflow runs of octocat/hello-world:",
        `${latest.id} CI #4: Still running (in_progress; push on main, ${latest.createdAt})`,
      ].join("\n"),
    );
    expect((result.data as { items: unknown[] }).items[0]).toEqual({
      id: latest.id,
      workflow: "CI",
      workflowId: ci.id,
      title: "Still running",
      runNumber: 4,
      attempt: 1,
      event: "push",
      status: "in_progress",
      conclusion: null,
      branch: "main",
      headSha: latest.headSha,
      actor: "hubot",
      createdAt: latest.createdAt,
      updatedAt: latest.createdAt,
      url: `https://github.com/octocat/hello-world/actions/runs/${latest.id}`,
    });
  });

  it("narrows to one workflow by file name or id, and by branch, status and event", async () => {
    const byFile = await list({ workflow: "ci.yml", status: "failure" });
    expect(gh.fake.requests.at(-1)?.path).toBe("/repos/octocat/hello-world/actions/workflows/ci.yml/runs");
    expect(gh.fake.requests.at(-1)?.query).toMatchObject({ status: "failure" });
    expect(byFile.ok && titles(byFile.data)).toEqual(["Try on a branch", "Break login"]);

    const byId = await list({ workflow: ci.id, branch: "feature", event: "pull_request" });
    expect(gh.fake.requests.at(-1)?.path).toBe(`/repos/octocat/hello-world/actions/workflows/${ci.id}/runs`);
    expect(gh.fake.requests.at(-1)?.query).toMatchObject({ branch: "feature", event: "pull_request" });
    expect(byId.ok && titles(byId.data)).toEqual(["Try on a branch"]);
  });

  it("stops at the limit after one page and says more exist", async () => {
    const before = gh.fake.requests.length;
    const result = await list({ limit: 2 });
    expect(gh.fake.requests.length - before).toBe(1);
    expect(gh.fake.requests.at(-1)?.query).toEqual({ per_page: "2" });
    expect(result.ok && result.truncated).toBe(true);
    expect(result.ok && result.data).toMatchObject({ complete: false });
    expect(result.ok && result.content).toContain(
      "the first 2 workflow runs of octocat/hello-world; there are more: narrow the query or raise the limit:",
    );
  });

  it("says an unknown workflow may be out of reach", async () => {
    const result = await list({ workflow: "deploy.yml" });
    expect(result.ok || result.error.message).toMatch(
      /workflow runs of octocat\/hello-world for workflow deploy\.yml.*no access/,
    );
  });

  it("refuses a workflow path, an unknown status or a bad event before any request", async () => {
    for (const input of [
      { workflow: ".github/workflows/ci.yml" },
      { workflow: "ci.txt" },
      { status: "broken" },
      { event: "Push Event" },
      { branch: "a..b" },
    ]) {
      const before = gh.fake.requests.length;
      const result = await list(input);
      expect(result.ok || result.error.code).toBe("invalid_input");
      expect(gh.fake.requests.length).toBe(before);
    }
  });

  it("tells GitHub's primary rate limit by its reset time", async () => {
    const reset = Math.floor(Date.now() / 1000) + 1_800;
    gh.fake.failNext("GET", "/repos/octocat/hello-world/actions/runs", {
      status: 403,
      headers: {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
        "x-ratelimit-resource": "core",
      },
      body: {
        message: "API rate limit exceeded for user ID 1.",
        documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
      },
    });
    const result = await list({});
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({ code: "upstream_rate_limited", retryable: true });
      expect(result.error.message).toMatch(/primary rate limit is spent \(5000 requests an hour/);
      expect(result.error.retryAfterMs).toBeGreaterThan(1_790_000);
    }
  });
});
