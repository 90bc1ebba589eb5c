/** @module What `research_search` runs against once bound: the enabled sources and the deployment's bounds. */
import { toolFor } from "toolreg/toolkit";
import type { ResearchSource } from "./research-source.js";

export interface ResearchEnv {
  /** The sources this deployment enabled, in the order results are given. */
  sources: readonly ResearchSource[];
  /** The most results one source returns; a model may ask for fewer, never more. */
  maxResults: number;
  /** The Wikipedia edition searched when a call names none. */
  language: string;
}

/** Declares a research tool: its `run` receives the bound ResearchEnv. */
export const researchTool = toolFor<ResearchEnv>();
