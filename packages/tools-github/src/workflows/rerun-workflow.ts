/** @module `github_rerun_workflow`: runs a finished workflow run again, whole or only its failed jobs. */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";
import { repositoryPage } from "../github-shapes.js";
import { runIdField } from "./workflow-inputs.js";

export const rerunWorkflow = githubTool({
  name: "github_rerun_workflow",
  description:
    "Re-runs a finished GitHub Actions workflow run as a new attempt of the same run (same commit and trigger): all its jobs, or with failed_only only the jobs that failed and those that depend on them. GitHub refuses a run that is still in progress or older than 30 days. Optionally with debug logging. To start a workflow afresh on a branch use github_dispatch_workflow.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({
    ...repoInput,
    run_id: runIdField,
    failed_only: z
      .boolean()
      .optional()
      .describe("re-run only the failed jobs and their dependents (default: every job)"),
    debug_logging: z.boolean().optional().describe("turn on runner and step debug logging for the re-run"),
  }),
  async run({ owner, repo, run_id, failed_only: failedOnly = false, debug_logging: debug }, context, env) {
    await env
      .github(context)
      .request(
        failedOnly
          ? "POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs"
          : "POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun",
        { owner, repo, run_id, ...(debug === undefined ? {} : { enable_debug_logging: debug }) },
        `re-running workflow run ${run_id} of ${owner}/${repo}`,
      );
    const result = {
      runId: run_id,
      rerun: failedOnly ? "failed jobs" : "all jobs",
      url: repositoryPage(owner, repo, `/actions/runs/${run_id}`),
    };
    return {
      content: `GitHub is re-running ${result.rerun} of workflow run ${run_id} in ${owner}/${repo} as a new attempt; follow it with github_get_workflow_run`,
      data: result,
    };
  },
});
