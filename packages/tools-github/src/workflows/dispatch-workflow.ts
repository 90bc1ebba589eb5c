/** @module `github_dispatch_workflow`: starts a workflow that has a workflow_dispatch trigger, on a branch or tag. */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { refNameField } from "../git-inputs.js";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";
import { workflowField } from "./workflow-inputs.js";

/** GitHub's rule for a workflow_dispatch input's id. */
const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;

export const dispatchWorkflow = githubTool({
  name: "github_dispatch_workflow",
  description:
    "Starts a GitHub Actions workflow run by hand (a workflow_dispatch event) on a branch or tag, with the inputs the workflow declares (at most 25; omitted ones take their defaults). The workflow file at that ref must have an on: workflow_dispatch trigger, or GitHub refuses. Returns the new run's id when GitHub gives it, to follow with github_get_workflow_run. To repeat an existing run use github_rerun_workflow.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({
    ...repoInput,
    workflow: workflowField,
    ref: refNameField("the branch or tag to run the workflow on, e.g. main"),
    inputs: z
      .record(
        z.string().regex(INPUT_NAME, "an input id: a letter or _, then letters, digits, - or _"),
        z.union([z.string().max(65_535), z.number(), z.boolean()]),
      )
      .refine((inputs) => Object.keys(inputs).length <= 25, "GitHub takes at most 25 inputs")
      .optional()
      .describe('the workflow\'s inputs by id, e.g. { "environment": "staging" }'),
  }),
  async run({ owner, repo, workflow, ref, inputs }, context, env) {
    const { status, data } = await env
      .github(context)
      .request(
        "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches",
        { owner, repo, workflow_id: workflow, ref, ...(inputs ? { inputs } : {}), return_run_details: true },
        `dispatch of workflow ${workflow} on ${ref} in ${owner}/${repo}`,
      )
      .catch((error: unknown) => {
        throw noDispatchTrigger(error, workflow, ref);
      });
    // With return_run_details GitHub answers 200 and the run; a server without it answers 204 and nothing.
    const run =
      status === 200 && data ? { runId: data.workflow_run_id as number, url: data.html_url as string } : null;
    const result = { dispatched: true, workflow, ref, runId: run?.runId ?? null, url: run?.url ?? null };
    return {
      content: run
        ? `Started workflow ${workflow} on ${ref} in ${owner}/${repo}: run ${run.runId}; follow it with github_get_workflow_run`
        : `Started workflow ${workflow} on ${ref} in ${owner}/${repo}; GitHub did not say which run: find it with github_list_workflow_runs (event workflow_dispatch)`,
      data: result,
    };
  },
});

/** GitHub's 422 when the workflow file at that ref has no workflow_dispatch trigger, told so a model knows what to change. */
function noDispatchTrigger(error: unknown, workflow: string | number, ref: string): unknown {
  if (
    !ToolFailure.isInstance(error) ||
    !/workflow_dispatch/.test(String(error.details?.githubMessage ?? ""))
  ) {
    return error;
  }
  return new ToolFailure(
    "invalid_input",
    `workflow ${workflow} has no workflow_dispatch trigger in its file on ${ref}, so it cannot be started by hand there: GitHub reads the trigger from the workflow file at that ref; add "on: workflow_dispatch" to it, or pick a ref whose version has it`,
    { retryable: false, details: error.details },
  );
}
