/** @module Embedding providers for tool search, each behind the `EmbeddingProvider` port. */

export {
  EmbeddingsRequestError,
  EmbeddingsResponseError,
  type OpenAICompatibleEmbeddingsOptions,
  openAICompatibleEmbeddings,
} from "./openai-compatible.js";
export { loadUniversalSentenceEncoder } from "./universal-sentence-encoder.js";
