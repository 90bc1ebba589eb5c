/** @module The model-facing catalogue: each provider's function-calling format, rendered from one tool list. */
export { type AnthropicOptions, type AnthropicTool, renderAnthropicTools } from "./anthropic.js";
export {
  type CatalogBudget,
  type CatalogTruncatedEvent,
  type CountedAs,
  compactDescription,
  compactSchema,
  compactTool,
  countedAs,
  countJsonTokens,
  entryTokens,
  type FitOptions,
  type FittedCatalog,
  type FittedSkillCatalog,
  fitCatalog,
  fitSkillCatalog,
  loadO200kCounter,
  OPENAI_FUNCTIONS_FRAME,
  type OpenAIFunctionDefinition,
  openAIFunctionText,
  PINNED_TOOLS,
  type SkillEntry,
  type TokenCounter,
} from "./budget/index.js";
export { CatalogSchemaError } from "./catalog-schema-error.js";
export {
  type GeminiFunctionDeclaration,
  type GeminiOptions,
  type GeminiTools,
  renderGeminiTools,
} from "./gemini.js";
export { GEMINI_SCHEMA_KEYWORDS, type GeminiSchema, toGeminiSchema } from "./gemini-schema.js";
export { annotationsFor, type McpTool, type McpToolAnnotations, renderMcpTools } from "./mcp.js";
export { type FoundTool, type MetaToolDeps, metaTools } from "./meta/index.js";
export { type OpenAIChatOptions, type OpenAIChatTool, renderOpenAIChatTools } from "./openai-chat.js";
export {
  type OpenAIResponsesOptions,
  type OpenAIResponsesTool,
  renderOpenAIResponsesTools,
} from "./openai-responses.js";
export { parametersOf } from "./parameters.js";
export {
  CATALOG_PROVIDERS,
  type CatalogFilter,
  type CatalogFormats,
  type CatalogProvider,
  type DetailOptions,
  renderCatalog,
  renderTools,
} from "./render-catalog.js";
export {
  DEFAULT_HYBRID_WEIGHTS,
  type EmbeddingProvider,
  EmbeddingProviderError,
  HashedBagOfWordsEmbedding,
  type HybridSearchOptions,
  HybridToolSearch,
  type HybridWeights,
  type SearchDocument,
  type SearchHit,
  type SearchOptions,
  ToolSearchIndex,
  type ToolSearchIndexOptions,
  toSearchDocument,
} from "./search/index.js";
export {
  type AnthropicToolResultBlock,
  type AnthropicToolResultMessage,
  type GeminiFunctionResponse,
  type GeminiFunctionResponseContent,
  type McpCallToolResult,
  type McpTextContent,
  type OpenAIChatToolMessage,
  type OpenAIResponsesFunctionCallOutput,
  type ParsedToolCall,
  parseToolCalls,
  type RunToolCallsOptions,
  type RunToolCallsResult,
  renderToolResults,
  runToolCalls,
  type ToolCallResult,
  type ToolResultFormats,
} from "./tool-calls/index.js";
