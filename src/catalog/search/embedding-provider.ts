/** @module The embedding port, a hashed bag-of-words test double, and hybrid (BM25 + vector) search. */

import { tokenize } from "./tokenize.js";
import {
  compareHits,
  type SearchDocument,
  type SearchHit,
  type SearchOptions,
  type ToolSearchIndex,
} from "./tool-search-index.js";

/** Turns texts into vectors, one per text, all of one length; for deployments that have an embedding model. */
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

/** The text a document is embedded as. */
export function embeddingText(document: SearchDocument): string {
  return [document.name, document.description, document.category ?? ""].join(" ").trim();
}

export interface HybridSearchOptions {
  /** Reciprocal-rank-fusion constant; larger flattens the difference between ranks. */
  rrfK?: number;
  /** How deep each ranking is read before fusing. */
  depth?: number;
}

/**
 * Fuses the lexical ranking of a `ToolSearchIndex` with cosine similarity from an `EmbeddingProvider` by
 * reciprocal-rank fusion: score = Σ 1 / (rrfK + rank). Documents are embedded when added.
 */
export class HybridToolSearch {
  readonly #vectors = new Map<string, { document: SearchDocument; vector: number[] }>();
  readonly #rrfK: number;
  readonly #depth: number;

  constructor(
    readonly index: ToolSearchIndex,
    readonly provider: EmbeddingProvider,
    options: HybridSearchOptions = {},
  ) {
    this.#rrfK = options.rrfK ?? 60;
    this.#depth = options.depth ?? 50;
  }

  /** Indexes documents in the lexical index and embeds them. */
  async add(documents: readonly SearchDocument[]): Promise<void> {
    const vectors = await this.provider.embed(documents.map(embeddingText));
    documents.forEach((document, i) => {
      this.index.add(document);
      this.#vectors.set(document.name, { document, vector: vectors[i] ?? [] });
    });
  }

  /** Removes a document from both rankings; returns whether there was one. */
  remove(name: string): boolean {
    const had = this.#vectors.delete(name);
    return this.index.remove(name) || had;
  }

  /** Ranks by fused score, best first, ties by name. */
  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const limit = Math.max(0, Math.floor(options.limit ?? 10));
    if (limit === 0) return [];
    const lexical = this.index.search(query, {
      limit: this.#depth,
      ...(options.filter && { filter: options.filter }),
    });
    const [queryVector = []] = await this.provider.embed([query]);
    const semantic: SearchHit[] = [];
    for (const { document, vector } of this.#vectors.values()) {
      if (options.filter && !options.filter(document)) continue;
      const score = cosine(queryVector, vector);
      if (score > 0) semantic.push({ name: document.name, score });
    }
    semantic.sort(compareHits);
    const fused = new Map<string, number>();
    for (const ranking of [lexical, semantic.slice(0, this.#depth)]) {
      ranking.forEach((hit, rank) => {
        fused.set(hit.name, (fused.get(hit.name) ?? 0) + 1 / (this.#rrfK + rank + 1));
      });
    }
    return [...fused]
      .map(([name, score]) => ({ name, score }))
      .sort(compareHits)
      .slice(0, limit);
  }
}

function cosine(left: readonly number[], right: readonly number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const a = left[i]!;
    const b = right[i]!;
    dot += a * b;
    leftNorm += a * a;
    rightNorm += b * b;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}
