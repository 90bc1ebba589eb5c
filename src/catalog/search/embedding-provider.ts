/** @module The embedding port, a hashed bag-of-words test double, and hybrid (BM25 + vector) search. */

import { schemaText } from "./schema-text.js";
import { splitIdentifier, tokenize } from "./tokenize.js";
import {
  type SearchDocument,
  type SearchHit,
  type SearchOptions,
  selectTop,
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

export interface HybridSearchOptions {
  /**
   * The embedding's share of the fused score, 0 (lexical only) to 1 (embedding only). 0.7 unless given:
   * measured on the bench-data sets as a whole with the Universal Sentence Encoder (see bench/search.ts).
   */
  semanticWeight?: number;
  /** How deep the lexical ranking is read before fusing. */
  depth?: number;
}

/**
 * Fuses the lexical ranking of a `ToolSearchIndex` with cosine similarity from an `EmbeddingProvider`:
 * each score scaled to 0..1 over this query's candidates (BM25 by its best, cosine between its worst and
 * best), then mixed by `semanticWeight`. A convex mix of scores keeps how far apart two tools are, which
 * rank fusion throws away, and measured better (bench/search.ts); unlike z-scores, it weighs the two alike
 * however large the catalogue (docs/decisions/0008). Documents are embedded when added.
 */
export class HybridToolSearch {
  readonly #vectors = new Map<string, { document: SearchDocument; vector: number[] }>();
  readonly #semanticWeight: number;
  readonly #depth: number;

  constructor(
    readonly index: ToolSearchIndex,
    readonly provider: EmbeddingProvider,
    options: HybridSearchOptions = {},
  ) {
    this.#semanticWeight = Math.min(1, Math.max(0, options.semanticWeight ?? 0.7));
    this.#depth = options.depth ?? 50;
  }

  /** Embeds documents and indexes them in both rankings; a provider's miscount indexes none of them. */
  async add(documents: readonly SearchDocument[]): Promise<void> {
    const vectors = await this.provider.embed(documents.map(embeddingText));
    if (vectors.length !== documents.length) {
      throw new Error(`the embedding provider gave ${vectors.length} vectors for ${documents.length} texts`);
    }
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

  /**
   * Ranks by fused score, best first, ties by name. A query with no words finds nothing. Throws an
   * `EmbeddingProviderError` when the provider fails on the query, so a caller can rank lexically instead.
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const limit = Math.max(0, Math.floor(options.limit ?? 10));
    if (limit === 0 || query.trim() === "") return [];
    let queryVector: number[];
    try {
      [queryVector = []] = await this.provider.embed([query]);
    } catch (error) {
      throw new EmbeddingProviderError(error);
    }
    // The filter (authorization, for find_tools) is asked once per document, here; the lexical ranking
    // then keeps to what passed.
    const semantic: SearchHit[] = [];
    for (const { document, vector } of this.#vectors.values()) {
      if (options.filter && !options.filter(document)) continue;
      semantic.push({ name: document.name, score: cosine(queryVector, vector) });
    }
    const passed = options.filter ? new Set(semantic.map((hit) => hit.name)) : undefined;
    const lexical = this.index.search(query, {
      limit: this.#depth,
      ...(passed && { filter: (document: SearchDocument) => passed.has(document.name) }),
    });
    const weight = this.#semanticWeight;
    const fused = new Map<string, number>();
    let best = Number.NEGATIVE_INFINITY;
    let worst = Number.POSITIVE_INFINITY;
    for (const hit of semantic) {
      best = Math.max(best, hit.score);
      worst = Math.min(worst, hit.score);
    }
    const spread = best - worst || 1;
    for (const hit of semantic) fused.set(hit.name, (weight * (hit.score - worst)) / spread);
    const top = lexical[0]?.score || 1;
    for (const hit of lexical)
      fused.set(hit.name, (fused.get(hit.name) ?? 0) + ((1 - weight) * hit.score) / top);
    const hits: SearchHit[] = [];
    for (const [name, score] of fused) if (score > 0) hits.push({ name, score });
    return selectTop(hits, limit);
  }
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
