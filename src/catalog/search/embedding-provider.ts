/** @module The embedding port, its error, a hashed bag-of-words test double, and the text a tool is embedded as. */

import { schemaText } from "./schema-text.js";
import { splitIdentifier, tokenize } from "./tokenize.js";
import type { SearchDocument } from "./tool-search-index.js";

/**
 * Turns texts into vectors, one per text, all of one length; for deployments that have an embedding model.
 * A provider over HTTP throws errors with the response's `status`: find_tools reads 400, 413 and 422 as a
 * refusal of that one request, not as the provider being down.
 */
export interface EmbeddingProvider {
  embed(texts: readonly string[]): number[][] | Promise<number[][]>;
}

/**
 * A deterministic test double: each stemmed term is hashed (FNV-1a) into one of `dimensions` buckets and the
 * counts are L2-normalised. Texts sharing words are close; nothing is learned.
 */
export class HashedBagOfWordsEmbedding implements EmbeddingProvider {
  constructor(readonly dimensions = 256) {}

  embed(texts: readonly string[]): number[][] {
    return texts.map((text) => {
      const vector = new Array<number>(this.dimensions).fill(0);
      for (const term of tokenize(text)) {
        const bucket = fnv1a(term) % this.dimensions;
        vector[bucket] = (vector[bucket] ?? 0) + 1;
      }
      const length = Math.hypot(...vector);
      return length === 0 ? vector : vector.map((value) => value / length);
    });
  }
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The text a document is embedded as: its name in words, then what it does, then its inputs (names,
 * descriptions, enum values), as a sentence model reads best; the inputs come last, so a model that reads
 * only the start of a long text still sees the description.
 */
export function embeddingText(document: SearchDocument): string {
  const name = splitIdentifier(document.name).trim();
  const category = document.category ? ` (${document.category})` : "";
  const inputs = schemaText(document.parameters);
  return `${name}${category}: ${document.description}${inputs ? ` Inputs: ${inputs}` : ""}`.slice(0, 2_000);
}

/** The embedding provider failed on a query; `cause` says how. */
export class EmbeddingProviderError extends Error {
  constructor(cause: unknown) {
    super(`the embedding provider failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = "EmbeddingProviderError";
  }
}
