/** @module The Actions tools: workflow runs, their logs, re-runs and dispatches. */
import type { AnyToolSpec } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";
import { dispatchWorkflow } from "./dispatch-workflow.js";
import { getWorkflowRun } from "./get-workflow-run.js";
import { getWorkflowRunLogs } from "./get-workflow-run-logs.js";
import { listWorkflowRuns } from "./list-workflow-runs.js";
import { rerunWorkflow } from "./rerun-workflow.js";

export const workflowTools: AnyToolSpec<GithubEnv>[] = [
  listWorkflowRuns,
  getWorkflowRun,
  getWorkflowRunLogs,
  rerunWorkflow,
  dispatchWorkflow,
];
