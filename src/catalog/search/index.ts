/** @module Tool search: BM25F over the catalogue, with an optional embedding port for hybrid ranking. */

export {
  type EmbeddingProvider,
  EmbeddingProviderError,
  embeddingText,
  HashedBagOfWordsEmbedding,
} from "./embedding-provider.js";
export { toSearchDocument } from "./from-tool.js";
export {
  DEFAULT_HYBRID_WEIGHTS,
  type HybridSearchOptions,
  HybridToolSearch,
  type HybridWeights,
} from "./hybrid-tool-search.js";
export { schemaText } from "./schema-text.js";
export { isStopWord, splitIdentifier, stem, tokenize } from "./tokenize.js";
export {
  compareHits,
  DEFAULT_SEARCH_OPTIONS,
  SEARCH_FIELDS,
  type SearchDocument,
  type SearchField,
  type SearchHit,
  type SearchOptions,
  ToolSearchIndex,
  type ToolSearchIndexOptions,
} from "./tool-search-index.js";
