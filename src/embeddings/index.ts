/** @module Embedding providers for tool search, each behind the `EmbeddingProvider` port. */
export { loadUniversalSentenceEncoder } from "./universal-sentence-encoder.js";
