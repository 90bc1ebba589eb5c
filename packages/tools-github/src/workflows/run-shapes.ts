/**
 * @module GitHub's workflow run and job payloads cut to what a model needs: what ran, on what, how it
 * ended, and where to see it. Names and titles are written by whoever wrote the workflow or the commit.
 */
import { login } from "../github-shapes.js";

/** A workflow run as lists and reads show it. */
// biome-ignore lint/suspicious/noExplicitAny: GitHub's workflow run payload, read field by field.
export function runSummary(run: any) {
  return {
    id: run.id as number,
    workflow: run.name as string,
    workflowId: run.workflow_id as number,
    title: run.display_title as string,
    runNumber: run.run_number as number,
    attempt: (run.run_attempt ?? 1) as number,
    event: run.event as string,
    status: run.status as string,
    conclusion: (run.conclusion ?? null) as string | null,
    branch: (run.head_branch ?? null) as string | null,
    headSha: run.head_sha as string,
    actor: login(run.actor),
    createdAt: run.created_at as string,
    updatedAt: run.updated_at as string,
    url: run.html_url as string,
  };
}

/** A listed run on one line: its id (what the other run tools take), workflow, title, outcome, branch and trigger. */
export function runLine(run: ReturnType<typeof runSummary>): string {
  const outcome = run.conclusion ?? run.status;
  return `${run.id} ${run.workflow} #${run.runNumber}: ${run.title} (${outcome}; ${run.event} on ${run.branch ?? "no branch"}, ${run.createdAt})`;
}

/** Conclusions whose jobs a model needs the detail of: steps and GitHub's error annotations. */
export const FAILED_CONCLUSIONS: ReadonlySet<string> = new Set([
  "failure",
  "timed_out",
  "cancelled",
  "startup_failure",
]);

/** A job with its steps' outcomes (every step, so the failing one is seen in order). */
// biome-ignore lint/suspicious/noExplicitAny: GitHub's job payload, read field by field.
export function jobSummary(job: any) {
  return {
    id: job.id as number,
    name: job.name as string,
    status: job.status as string,
    conclusion: (job.conclusion ?? null) as string | null,
    startedAt: (job.started_at ?? null) as string | null,
    completedAt: (job.completed_at ?? null) as string | null,
    url: job.html_url as string,
    // biome-ignore lint/suspicious/noExplicitAny: GitHub's step payload.
    steps: ((job.steps ?? []) as any[]).map((step) => ({
      number: step.number as number,
      name: step.name as string,
      conclusion: (step.conclusion ?? step.status) as string,
    })),
  };
}
