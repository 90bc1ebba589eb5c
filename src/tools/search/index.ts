/**
 * @module The search toolkit: `web_search` with Brave Search, Tavily, Serper and SearXNG adapters behind
 * one `SearchProvider` port. A deployment loads `searchToolkit` and names its provider in the config.
 */
export { type SearchConfig, SearchConfigSchema } from "./search-config.js";
export type { SearchEnv } from "./search-env.js";
export { type SearchInput, SearchInputSchema } from "./search-input.js";
export type {
  Freshness,
  ProviderName,
  ProviderSetup,
  SearchHit,
  SearchOptions,
  SearchProvider,
} from "./search-provider.js";
export { type SearchOutput, SearchOutputSchema, type SearchResult } from "./search-results.js";
export { SEARCH_PROVIDERS, searchToolkit } from "./toolkit.js";
