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
}

/**
 * Fuses the lexical ranking of a `ToolSearchIndex` with cosine similarity from an `EmbeddingProvider`.
 * Each score is standardised over this query's candidates (every document the filter lets through, a
 * lexical miss counting 0): how far a tool stands above the crowd, in that ranking's own spread. The
 * standardised scores are mixed by `semanticWeight`. A fused score is relative to its query: higher is
 * better, and it may be negative. Standardising measured better than scaling each ranking by its best
 * (min-max) and than rank fusion, on both bench-data sets (bench/search.ts): a ranking whose top is
 * close to the rest moves the mix less than one with a clear winner. Documents are embedded when added.
 */
export class HybridToolSearch {
  readonly #vectors = new Map<string, { document: SearchDocument; vector: number[] }>();
  readonly #semanticWeight: number;

  constructor(
    readonly index: ToolSearchIndex,
    readonly provider: EmbeddingProvider,
    options: HybridSearchOptions = {},
  ) {
    this.#semanticWeight = Math.min(1, Math.max(0, options.semanticWeight ?? 0.7));
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

  /** Ranks by fused score, best first, ties by name. A query with no words finds nothing. */
  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const limit = Math.max(0, Math.floor(options.limit ?? 10));
    if (limit === 0 || query.trim() === "") return [];
    const filter = options.filter;
    // Unfiltered here: the loop below asks the filter once per document, and skips a lexical hit it refuses.
    const lexical = new Map(
      this.index.search(query, { limit: this.index.size }).map((hit) => [hit.name, hit.score]),
    );
    const [queryVector = []] = await this.provider.embed([query]);
    const names: string[] = [];
    const semanticScores: number[] = [];
    const lexicalScores: number[] = [];
    for (const { document, vector } of this.#vectors.values()) {
      if (filter && !filter(document)) continue;
      names.push(document.name);
      semanticScores.push(cosine(queryVector, vector));
      lexicalScores.push(lexical.get(document.name) ?? 0);
    }
    const semantic = standardise(semanticScores);
    const lexicalStandard = standardise(lexicalScores);
    const weight = this.#semanticWeight;
    const fused = names.map((name, i) => ({
      name,
      score: weight * semantic[i]! + (1 - weight) * lexicalStandard[i]!,
    }));
    return selectTop(fused, limit);
  }
}

/** Each value's distance from the mean in standard deviations; all zeros when the values do not spread. */
function standardise(values: readonly number[]): number[] {
  const mean = values.reduce((sum, value) => sum + value, 0) / (values.length || 1);
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length || 1);
  const deviation = Math.sqrt(variance);
  return values.map((value) => (deviation > 0 ? (value - mean) / deviation : 0));
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
