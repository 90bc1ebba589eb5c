/**
 * @module The fake's GitHub Actions: workflows, runs, their jobs and annotations, re-runs and dispatches,
 * in memory. Behaviour reproduced:
 * - docs.github.com/en/rest/actions/workflow-runs#list-workflow-runs-for-a-repository (and …-for-a-workflow,
 *   which takes a workflow's id or file name): `branch`, `status` (a status or a conclusion), `event`
 *   filters, newest first, `{ total_count, workflow_runs }` paged with `Link`.
 * - …/workflow-jobs#list-jobs-for-a-workflow-run (`filter=latest`, `{ total_count, jobs }`) and
 *   docs.github.com/en/rest/checks/runs#list-check-run-annotations (a job is a check run).
 * - …/workflow-runs#re-run-a-workflow and …#re-run-failed-jobs-from-a-workflow-run: 201 and an empty object;
 *   a run still in progress is a 403 "This workflow is already running" (metabase/metabase#70916, cli/cli#9221).
 * - …/workflow-jobs#download-job-logs-for-a-workflow-run: 302 with a `Location` to a signed URL on another host
 *   (`logLocation`, the blob host fake in tests), expiring after a minute; a job that is not there is a 404.
 * - …/workflows#create-a-workflow-dispatch-event: 204, or 200 with the run when `return_run_details`; a
 *   workflow whose file has no workflow_dispatch trigger is a 422 "Workflow does not have
 *   'workflow_dispatch' trigger" (benc-uk/workflow-dispatch#81), an unknown ref a 422 "No ref found for: …".
 */
import type { Context } from "hono";
import { exampleItem, pagedAnswer, undocumentedError } from "./git-answers.js";
import type { FakeRoutes } from "./github-fake.js";
import { example } from "./payloads.js";

export interface FakeWorkflow {
  id: number;
  name: string;
  /** Its file, e.g. `.github/workflows/ci.yml`. */
  path: string;
  /** Whether its file declares `on: workflow_dispatch`. */
  dispatchable: boolean;
}

export interface FakeStep {
  number: number;
  name: string;
  conclusion: string | null;
}

export interface FakeAnnotation {
  path: string;
  line: number;
  level: "failure" | "warning" | "notice";
  title: string;
  message: string;
}

export interface FakeJob {
  id: number;
  name: string;
  status: "queued" | "in_progress" | "completed";
  conclusion: string | null;
  steps: FakeStep[];
  annotations: FakeAnnotation[];
  /** Its log text, served from the blob host the log download redirects to. */
  log?: string;
}

export interface FakeRun {
  id: number;
  workflowId: number;
  title: string;
  event: string;
  branch: string;
  headSha: string;
  status: "queued" | "in_progress" | "completed";
  conclusion: string | null;
  runNumber: number;
  attempt: number;
  actor: string;
  createdAt: string;
  jobs: FakeJob[];
}

export interface FakeDispatch {
  workflowId: number;
  ref: string;
  inputs: Record<string, unknown> | undefined;
}

/** The Actions state of octocat/hello-world: tests add workflows and runs, and read what was re-run or dispatched. */
export class FakeActions {
  readonly workflows: FakeWorkflow[] = [];
  readonly runs: FakeRun[] = [];
  readonly dispatches: FakeDispatch[] = [];
  /** Refs a dispatch may name: the repository's branches and tags. */
  readonly refs = new Set(["main"]);
  /** Where a job's log download redirects: a signed URL on GitHub's blob storage unless a test points it elsewhere. */
  logLocation = (job: FakeJob): string =>
    `https://productionresultssa0.blob.core.windows.net/actions-results/${job.id}/logs.txt?sig=fake`;
  #nextId = 7_000_000;

  addWorkflow(workflow: Omit<FakeWorkflow, "id">): FakeWorkflow {
    const added = { id: this.#id(), ...workflow };
    this.workflows.push(added);
    return added;
  }

  addRun(
    workflow: FakeWorkflow,
    run: Partial<Omit<FakeRun, "id" | "workflowId" | "jobs">> & { jobs?: Omit<FakeJob, "id">[] },
  ): FakeRun {
    const runNumber = this.runs.filter((each) => each.workflowId === workflow.id).length + 1;
    const added: FakeRun = {
      title: `Run ${runNumber}`,
      event: "push",
      branch: "main",
      headSha: "acb5820ced9479c074f688cc328bf03f341a511d",
      status: "completed",
      conclusion: "success",
      runNumber,
      attempt: 1,
      actor: "octocat",
      createdAt: new Date(Date.UTC(2024, 0, 1, 0, this.runs.length)).toISOString().replace(/\.000Z$/, "Z"),
      ...run,
      id: this.#id(),
      workflowId: workflow.id,
      jobs: (run.jobs ?? []).map((job) => ({ ...job, id: this.#id() })),
    };
    this.runs.push(added);
    return added;
  }

  /** A workflow by its id or its file name, as GitHub takes either. */
  workflow(idOrFile: string): FakeWorkflow | undefined {
    return this.workflows.find((each) => String(each.id) === idOrFile || each.path.endsWith(`/${idOrFile}`));
  }

  #id(): number {
    this.#nextId += 1;
    return this.#nextId;
  }
}

const DOCS = {
  runs: "actions/workflow-runs#list-workflow-runs-for-a-repository",
  run: "actions/workflow-runs#get-a-workflow-run",
  jobs: "actions/workflow-jobs#list-jobs-for-a-workflow-run",
  annotations: "checks/runs#list-check-run-annotations",
  jobLogs: "actions/workflow-jobs#download-job-logs-for-a-workflow-run",
  rerun: "actions/workflow-runs#re-run-a-workflow",
  dispatch: "actions/workflows#create-a-workflow-dispatch-event",
};

export function actionsRoutes(actions: FakeActions): FakeRoutes {
  return (app, fake) => {
    const api = "https://api.github.com/repos/octocat/hello-world";
    const isRepository = (c: Context) =>
      c.req.param("owner")?.toLowerCase() === "octocat" &&
      c.req.param("repo")?.toLowerCase() === "hello-world";
    // GitHub answers 404 for a run, job or workflow that is not there or not visible, though its description
    // lists no 404 for these operations: the answer goes out unchecked, in GitHub's usual shape.
    const notFound = (docs: string) => undocumentedError(404, "Not Found", docs);
    const runById = (c: Context) => actions.runs.find((run) => String(run.id) === c.req.param("run_id"));

    const listRuns = (c: Context, runs: FakeRun[]) => {
      const { branch, status, event } = c.req.query();
      const chosen = runs
        .filter(
          (run) =>
            (!branch || run.branch === branch) &&
            (!status || run.status === status || run.conclusion === status) &&
            (!event || run.event === event),
        )
        .reverse();
      return pagedAnswer(
        c,
        fake,
        chosen.map((run) => runPayload(actions, run)),
        (page) => ({ total_count: chosen.length, workflow_runs: page }),
      );
    };

    app.get("/repos/:owner/:repo/actions/runs", (c) =>
      isRepository(c) ? listRuns(c, actions.runs) : notFound(DOCS.runs),
    );

    app.get("/repos/:owner/:repo/actions/workflows/:workflow_id/runs", (c) => {
      const workflow = isRepository(c) ? actions.workflow(c.req.param("workflow_id")) : undefined;
      if (!workflow) return notFound(DOCS.runs);
      return listRuns(
        c,
        actions.runs.filter((run) => run.workflowId === workflow.id),
      );
    });

    app.get("/repos/:owner/:repo/actions/runs/:run_id", (c) => {
      const run = isRepository(c) ? runById(c) : undefined;
      return run ? fake.json(c, 200, runPayload(actions, run)) : notFound(DOCS.run);
    });

    app.get("/repos/:owner/:repo/actions/runs/:run_id/jobs", (c) => {
      const run = isRepository(c) ? runById(c) : undefined;
      if (!run) return notFound(DOCS.jobs);
      return pagedAnswer(
        c,
        fake,
        run.jobs.map((job) => jobPayload(actions, run, job)),
        (page) => ({ total_count: run.jobs.length, jobs: page }),
      );
    });

    app.get("/repos/:owner/:repo/check-runs/:check_run_id/annotations", (c) => {
      const job = isRepository(c)
        ? actions.runs
            .flatMap((run) => run.jobs)
            .find((each) => String(each.id) === c.req.param("check_run_id"))
        : undefined;
      if (!job) return notFound(DOCS.annotations);
      return pagedAnswer(
        c,
        fake,
        job.annotations.map((note) =>
          exampleItem("check-annotation-items", {
            path: note.path,
            start_line: note.line,
            end_line: note.line,
            start_column: null,
            end_column: null,
            annotation_level: note.level,
            title: note.title,
            message: note.message,
            raw_details: null,
            blob_href: `https://github.com/octocat/hello-world/blob/main/${note.path}`,
          }),
        ),
      );
    });

    app.get("/repos/:owner/:repo/actions/jobs/:job_id/logs", (c) => {
      const job = isRepository(c)
        ? actions.runs.flatMap((run) => run.jobs).find((each) => String(each.id) === c.req.param("job_id"))
        : undefined;
      if (!job) return notFound(DOCS.jobLogs);
      // A redirect has no body for the description to check.
      return new Response(null, { status: 302, headers: { location: actions.logLocation(job) } });
    });

    const rerun = (failedOnly: boolean) => (c: Context) => {
      const run = isRepository(c) ? runById(c) : undefined;
      if (!run) return notFound(DOCS.rerun);
      if (run.status !== "completed")
        return undocumentedError(403, "This workflow is already running", DOCS.rerun);
      run.attempt += 1;
      run.status = "queued";
      run.conclusion = null;
      for (const job of run.jobs) {
        if (!failedOnly || job.conclusion !== "success")
          Object.assign(job, { status: "queued", conclusion: null });
      }
      return fake.json(c, 201, {});
    };
    app.post("/repos/:owner/:repo/actions/runs/:run_id/rerun", rerun(false));
    app.post("/repos/:owner/:repo/actions/runs/:run_id/rerun-failed-jobs", rerun(true));

    app.post("/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches", async (c) => {
      const workflow = isRepository(c) ? actions.workflow(c.req.param("workflow_id")) : undefined;
      if (!workflow) return notFound(DOCS.dispatch);
      const body = (await c.req.json()) as {
        ref: string;
        inputs?: Record<string, unknown>;
        return_run_details?: boolean;
      };
      if (!actions.refs.has(body.ref))
        return undocumentedError(422, `No ref found for: ${body.ref}`, DOCS.dispatch);
      if (!workflow.dispatchable) {
        return undocumentedError(422, "Workflow does not have 'workflow_dispatch' trigger", DOCS.dispatch);
      }
      actions.dispatches.push({ workflowId: workflow.id, ref: body.ref, inputs: body.inputs });
      const run = actions.addRun(workflow, {
        event: "workflow_dispatch",
        branch: body.ref,
        status: "queued",
        conclusion: null,
        title: workflow.name,
      });
      if (!body.return_run_details) return fake.json(c, 204, null);
      return fake.json(c, 200, {
        workflow_run_id: run.id,
        run_url: `${api}/actions/runs/${run.id}`,
        html_url: `https://github.com/octocat/hello-world/actions/runs/${run.id}`,
      });
    });
  };
}

function runPayload(actions: FakeActions, run: FakeRun) {
  const workflow = actions.workflows.find((each) => each.id === run.workflowId) as FakeWorkflow;
  const api = `https://api.github.com/repos/octocat/hello-world/actions/runs/${run.id}`;
  const template = example<{ actor: Record<string, unknown>; head_commit: Record<string, unknown> }>(
    "workflow-run",
  );
  const actor = { ...template.actor, login: run.actor };
  return example("workflow-run", {
    id: run.id,
    name: workflow.name,
    workflow_id: workflow.id,
    path: workflow.path,
    display_title: run.title,
    run_number: run.runNumber,
    run_attempt: run.attempt,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    head_branch: run.branch,
    head_sha: run.headSha,
    head_commit: { ...template.head_commit, id: run.headSha, message: `${run.title}\n\nThe commit's body.` },
    actor,
    triggering_actor: actor,
    pull_requests: [],
    created_at: run.createdAt,
    updated_at: run.createdAt,
    run_started_at: run.createdAt,
    url: api,
    html_url: `https://github.com/octocat/hello-world/actions/runs/${run.id}`,
    jobs_url: `${api}/jobs`,
    logs_url: `${api}/logs`,
    rerun_url: `${api}/rerun`,
  });
}

function jobPayload(actions: FakeActions, run: FakeRun, job: FakeJob) {
  const workflow = actions.workflows.find((each) => each.id === run.workflowId) as FakeWorkflow;
  return example("job", {
    id: job.id,
    run_id: run.id,
    run_attempt: run.attempt,
    run_url: `https://api.github.com/repos/octocat/hello-world/actions/runs/${run.id}`,
    url: `https://api.github.com/repos/octocat/hello-world/actions/jobs/${job.id}`,
    html_url: `https://github.com/octocat/hello-world/actions/runs/${run.id}/job/${job.id}`,
    check_run_url: `https://api.github.com/repos/octocat/hello-world/check-runs/${job.id}`,
    head_sha: run.headSha,
    head_branch: run.branch,
    workflow_name: workflow.name,
    name: job.name,
    status: job.status,
    conclusion: job.conclusion,
    // GitHub's example lacks created_at, which its schema requires.
    created_at: run.createdAt,
    started_at: run.createdAt,
    completed_at: job.status === "completed" ? run.createdAt : null,
    steps: job.steps.map((step) => ({
      name: step.name,
      number: step.number,
      status: job.status === "completed" ? "completed" : "queued",
      conclusion: step.conclusion,
      started_at: run.createdAt,
      completed_at: run.createdAt,
    })),
  });
}
