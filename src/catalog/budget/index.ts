/** @module Token accounting and the catalogue budget. */
export { compactDescription } from "./compact-description.js";
export { compactSchema, compactTool } from "./compact-tool.js";
export {
  type CatalogBudget,
  type CatalogTruncatedEvent,
  entryTokens,
  type FitOptions,
  type FittedCatalog,
  fitCatalog,
  PINNED_TOOLS,
} from "./fit-catalog.js";
export { countJsonTokens, loadO200kCounter, type TokenCounter } from "./token-counter.js";
