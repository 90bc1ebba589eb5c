/** @module What the GitHub tools run against once bound: the client for each call, and the configured bounds. */
import { type ToolContext, toolFor } from "toolreg/toolkit";
import type { GithubCall } from "./github-client.js";

export interface GithubEnv {
  /** GitHub for one call: its fetch, its signal, its caller's credential. */
  github(context: ToolContext): GithubCall;
  /** The most items a list tool returns, following pages; a model may ask for fewer, never more. */
  maxItems: number;
}

/** Declares a GitHub tool: its `run` receives the bound GithubEnv. */
export const githubTool = toolFor<GithubEnv>();
