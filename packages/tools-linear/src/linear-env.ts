/** @module What the Linear tools run against once bound: Linear's GraphQL endpoint for each call, and the list bound. */
import { type ToolContext, toolFor } from "toolreg/toolkit";
import type { LinearCall } from "./linear-client.js";

export interface LinearEnv {
  /** Linear for one call: its egress, its signal and deadline, its caller's credential. */
  linear(context: ToolContext): LinearCall;
  /** The most items a list tool returns; a model may ask for fewer, never more. */
  maxItems: number;
}

/** Declares a Linear tool: its `run` receives the bound LinearEnv. */
export const linearTool = toolFor<LinearEnv>();
