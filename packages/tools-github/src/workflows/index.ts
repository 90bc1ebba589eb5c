/** @module The Actions tools: workflow runs, their logs, re-runs and dispatches. */
import type { AnyToolSpec } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";

export const workflowTools: AnyToolSpec<GithubEnv>[] = [];
