/** @module What `web_search` runs against once bound: the configured provider and the deployment's bound. */
import { toolFor } from "../toolkit/define-toolkit.js";
import type { SearchProvider } from "./search-provider.js";

export interface SearchEnv {
  provider: SearchProvider;
  /** The most results one search returns; a model may ask for fewer, never more. */
  maxResults: number;
}

/** Declares a search tool: its `run` receives the bound SearchEnv. */
export const searchTool = toolFor<SearchEnv>();
