/** @module What the GitHub tools run against once bound: the client for each call, and the configured bounds. */
import { type ToolContext, toolFor } from "toolreg/toolkit";
import type { GithubCall } from "./github-client.js";
import type { ReadJobLog } from "./workflows/job-log-tail.js";

export interface GithubEnv {
  /** GitHub for one call: its fetch, its signal, its caller's credential. */
  github(context: ToolContext): GithubCall;
  /** The most items a list tool returns, following pages; a model may ask for fewer, never more. */
  maxItems: number;
  /** The end of an Actions job's log, read from GitHub's signed download on a configured log host. */
  readJobLog: ReadJobLog;
}

/** Declares a GitHub tool: its `run` receives the bound GithubEnv. */
export const githubTool = toolFor<GithubEnv>();
