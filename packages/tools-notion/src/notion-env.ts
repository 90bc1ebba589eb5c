/** @module What the Notion tools run against once bound: Notion for each call, and the configured bounds. */
import { type ToolContext, toolFor } from "toolreg/toolkit";
import type { BlockTreeLimits } from "./blocks/read-block-tree.js";
import type { NotionCall } from "./notion-client.js";

export interface NotionEnv {
  /** Notion for one call: its egress, its signal and deadline, its caller's credential. */
  notion(context: ToolContext): NotionCall;
  /** The most search results or rows a read returns; a model may ask for fewer, never more. */
  maxItems: number;
  /** The ceilings of a block-tree read; a model may ask for less, never more. */
  blockLimits: BlockTreeLimits;
}

/** Declares a Notion tool: its `run` receives the bound NotionEnv. */
export const notionTool = toolFor<NotionEnv>();
