/** @module What the Jira tools run against once bound: Jira for each call, where issues are browsed, and the bounds. */
import { type ToolContext, toolFor } from "toolreg/toolkit";
import type { JiraCall } from "./jira-client.js";

export interface JiraEnv {
  /** Jira for one call: its egress, its signal and deadline, its caller's credential. */
  jira(context: ToolContext): JiraCall;
  /** The site people open issues at (`<siteUrl>/browse/KEY`); undefined when only a cloud id was configured. */
  siteUrl: string | undefined;
  /** The most items a search or list returns; a model may ask for fewer, never more. */
  maxItems: number;
  /** The most pages a search or list requests. */
  maxPages: number;
}

/** Declares a Jira tool: its `run` receives the bound JiraEnv. */
export const jiraTool = toolFor<JiraEnv>();
