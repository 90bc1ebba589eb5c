/** @module What the Confluence tools run against once bound: Confluence for each call, and the configured bounds. */
import { type ToolContext, toolFor } from "toolreg/toolkit";
import type { ConfluenceCall } from "./confluence-client.js";

export interface ConfluenceEnv {
  /** Confluence for one call: its egress, its signal and deadline, its caller's credential. */
  confluence(context: ToolContext): ConfluenceCall;
  /** The site's address for people, where a page's `webui` link is read from; undefined behind a cloud id. */
  siteUrl: string | undefined;
  maxItems: number;
  maxPageChars: number;
}

/** Declares a Confluence tool: its `run` receives the bound ConfluenceEnv. */
export const confluenceTool = toolFor<ConfluenceEnv>();
