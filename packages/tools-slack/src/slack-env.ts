/** @module What the Slack tools run against once bound: Slack for each call, and the configured bound. */
import { type ToolContext, toolFor } from "toolreg/toolkit";
import type { SlackCall } from "./slack-client.js";

export interface SlackEnv {
  /** Slack for one call: its egress, its signal and deadline, its caller's credential. */
  slack(context: ToolContext): SlackCall;
  /** The most items a read tool returns; a model may ask for fewer, never more. */
  maxItems: number;
}

/** Declares a Slack tool: its `run` receives the bound SlackEnv. */
export const slackTool = toolFor<SlackEnv>();
