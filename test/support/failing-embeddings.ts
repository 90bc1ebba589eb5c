/** @module An embedding provider that embeds the first batch (the catalogue) and fails every one after (the queries). */
import {
  type EmbeddingProvider,
  HashedBagOfWordsEmbedding,
} from "../../src/catalog/search/embedding-provider.js";

export interface FailingOnQueries extends EmbeddingProvider {
  /** Whether the first batch was embedded. */
  readonly catalogueEmbedded: boolean;
}

/** Embeds its first batch with a hashed bag of words, then throws `message` on every call. */
export function failingOnQueries(message: string, dimensions?: number): FailingOnQueries {
  const working = new HashedBagOfWordsEmbedding(dimensions);
  let catalogueEmbedded = false;
  return {
    get catalogueEmbedded() {
      return catalogueEmbedded;
    },
    embed(texts) {
      if (catalogueEmbedded) throw new Error(message);
      catalogueEmbedded = true;
      return working.embed(texts);
    },
  };
}
