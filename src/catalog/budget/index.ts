/** @module Token accounting and the catalogue budget. */
export { compactDescription } from "./compact-description.js";
export { compactSchema, compactTool } from "./compact-tool.js";
export {
  type CatalogBudget,
  type CatalogTruncatedEvent,
  type CountedAs,
  countedAs,
  entryTokens,
  type FitOptions,
  type FittedCatalog,
  fitCatalog,
  PINNED_TOOLS,
} from "./fit-catalog.js";
export {
  OPENAI_FUNCTIONS_FRAME,
  type OpenAIFunctionDefinition,
  openAIFunctionText,
} from "./openai-function-text.js";
export { type FittedSkillCatalog, fitSkillCatalog, type SkillEntry } from "./skill-catalog.js";
export { countJsonTokens, loadO200kCounter, type TokenCounter } from "./token-counter.js";
