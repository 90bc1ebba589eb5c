/**
 * @module `HybridToolSearch`: an embedding's meaning fused with three readings of the words — BM25F, the
 * character pieces a tool's name and description share with the query, and how much of the query a tool
 * holds at all.
 */

import { CharacterNgramIndex } from "./character-ngram-index.js";
import { type EmbeddingProvider, EmbeddingProviderError, embeddingText } from "./embedding-provider.js";
import {
  type SearchDocument,
  type SearchHit,
  type SearchOptions,
  selectTop,
  type ToolSearchIndex,
} from "./tool-search-index.js";
import { VectorMatrix } from "./vector-matrix.js";

/** The weight of each signal in the fused score; every signal is on a 0..1 scale before it is weighed. */
export interface HybridWeights {
  /** Cosine similarity to the query's embedding, scaled between its worst and best. */
  semantic: number;
  /** BM25F, scaled by its best hit. */
  lexical: number;
  /** Character n-gram cosine over name and description, scaled by its best. */
  characters: number;
  /** The share of the query's term weight a tool holds (`ToolSearchIndex.coverage`), as it is. */
  coverage: number;
}

const SIGNALS: readonly (keyof HybridWeights)[] = ["semantic", "lexical", "characters", "coverage"];

/**
 * Chosen on the bench-data sets as a whole with the in-process Universal Sentence Encoder and checked on
 * halves of them held out from the choice (bench/search.ts measures them; docs/decisions/0008 has the
 * figures); never per case. Another embedding model may want other shares.
 */
export const DEFAULT_HYBRID_WEIGHTS: Readonly<HybridWeights> = {
  semantic: 0.6,
  lexical: 0.15,
  characters: 0.25,
  coverage: 0.15,
};

export interface HybridSearchOptions {
  /** Weights of the signals, each 0 or more; a signal left out (or undefined) keeps its default. */
  weights?: Partial<HybridWeights>;
  /** How deep the BM25F ranking is read before fusing. */
  depth?: number;
}

/**
 * Ranks by a weighted sum of scaled scores. A sum of scores keeps how far apart two tools are, which
 * rank fusion throws away, and measured better; scaling each signal to 0..1 over this query's
 * candidates, unlike z-scores, weighs them alike however large the catalogue (docs/decisions/0008).
 * Documents are embedded when added.
 */
export class HybridToolSearch {
  // One id space for the documents, their vectors and the character index, so a query's scores are flat
  // arrays. The vectors are the rows of one matrix, sized by the first batch added.
  readonly #documents: (SearchDocument | undefined)[] = [];
  #vectors: VectorMatrix | undefined;
  readonly #ids = new Map<string, number>();
  readonly #free: number[] = [];
  readonly #characters = new CharacterNgramIndex();
  readonly #weights: HybridWeights;
  readonly #depth: number;

  constructor(
    readonly index: ToolSearchIndex,
    readonly provider: EmbeddingProvider,
    options: HybridSearchOptions = {},
  ) {
    const weights = { ...DEFAULT_HYBRID_WEIGHTS };
    for (const [signal, weight] of Object.entries(options.weights ?? {})) {
      if (!(SIGNALS as readonly string[]).includes(signal)) {
        throw new RangeError(`hybrid search has no signal ${signal}; it weighs ${SIGNALS.join(", ")}`);
      }
      if (weight === undefined) continue;
      if (!(weight >= 0 && Number.isFinite(weight))) {
        throw new RangeError(`hybrid search weight ${signal} must be a finite number of 0 or more`);
      }
      weights[signal as keyof HybridWeights] = weight;
    }
    if (weights.semantic + weights.lexical + weights.characters === 0) {
      throw new RangeError(
        "hybrid search needs a weight above 0 for at least one of semantic, lexical and characters",
      );
    }
    this.#weights = weights;
    this.#depth = options.depth ?? 50;
  }

  /**
   * Embeds documents and indexes them in every ranking. A provider's miscount, or vectors of another length
   * than the ones before, index none of them.
   */
  async add(documents: readonly SearchDocument[]): Promise<void> {
    // The first batch with a document in it says how long the vectors are.
    if (documents.length === 0) return;
    const vectors = await this.provider.embed(documents.map(embeddingText));
    if (vectors.length !== documents.length) {
      throw new Error(`the embedding provider gave ${vectors.length} vectors for ${documents.length} texts`);
    }
    const dimensions = this.#vectors?.dimensions ?? vectors[0]?.length ?? 0;
    if (dimensions === 0) throw new Error("the embedding provider gave vectors with no numbers in them");
    const odd = vectors.find((vector) => vector.length !== dimensions);
    if (odd) {
      throw new Error(
        `the embedding provider gave a vector of ${odd.length} numbers where the others have ${dimensions}`,
      );
    }
    const matrix = this.#vectors ?? new VectorMatrix(dimensions);
    this.#vectors = matrix;
    documents.forEach((document, i) => {
      this.remove(document.name);
      const id = this.#free.pop() ?? this.#documents.length;
      this.#documents[id] = document;
      matrix.set(id, vectors[i] as number[]);
      this.#ids.set(document.name, id);
      this.#characters.set(id, `${document.name} ${document.description}`);
      this.index.add(document);
    });
    // The character postings are rebuilt once for the batch, here, not by the first query after it.
    this.#characters.refresh();
  }

  /** Removes a document from every ranking; returns whether there was one. */
  remove(name: string): boolean {
    const id = this.#ids.get(name);
    if (id !== undefined) {
      this.#documents[id] = undefined;
      this.#vectors?.clear(id);
      this.#ids.delete(name);
      this.#free.push(id);
      this.#characters.delete(id);
    }
    return this.index.remove(name) || id !== undefined;
  }

  /**
   * Ranks by fused score, best first, ties by name. A query with no words finds nothing. Throws an
   * `EmbeddingProviderError` when the provider fails on the query, so a caller can rank lexically instead.
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const limit = Math.max(0, Math.floor(options.limit ?? 10));
    if (limit === 0 || query.trim() === "") return [];
    const matrix = this.#vectors;
    if (!matrix) return [];
    let queryVector: number[];
    try {
      [queryVector = []] = await this.provider.embed([query]);
      if (queryVector.length !== matrix.dimensions) {
        throw new Error(
          `a vector of ${queryVector.length} numbers for the query, ${matrix.dimensions} for the tools`,
        );
      }
    } catch (error) {
      throw new EmbeddingProviderError(error);
    }
    const cosines = matrix.cosines(queryVector, this.#documents.length);
    const weights = this.#weights;
    const count = this.#documents.length;
    // The filter (authorization, for find_tools) is asked once per document, here; every other signal
    // then keeps to what passed.
    const passed = new Uint8Array(count);
    const fused = new Float64Array(count);
    let best = Number.NEGATIVE_INFINITY;
    let worst = Number.POSITIVE_INFINITY;
    for (let id = 0; id < count; id++) {
      const document = this.#documents[id];
      if (!document || (options.filter && !options.filter(document))) continue;
      passed[id] = 1;
      const similarity = cosines[id]!;
      fused[id] = similarity;
      best = Math.max(best, similarity);
      worst = Math.min(worst, similarity);
    }
    const spread = best - worst || 1;
    for (let id = 0; id < count; id++) {
      if (passed[id]) fused[id] = (weights.semantic * (fused[id]! - worst)) / spread;
    }

    if (weights.characters > 0) {
      const characters = new Float64Array(count);
      this.#characters.similarities(query, characters);
      let top = 0;
      for (let id = 0; id < count; id++) if (passed[id]) top = Math.max(top, characters[id]!);
      const scale = weights.characters / (top || 1);
      for (let id = 0; id < count; id++) if (passed[id]) fused[id]! += characters[id]! * scale;
    }

    // The index may hold documents this search never embedded: only what passed counts, scale included.
    const lexical = this.index.search(query, {
      limit: this.#depth,
      filter: (document) => this.#passed(document.name, passed),
    });
    const topLexical = lexical[0]?.score || 1;
    for (const hit of lexical) {
      const id = this.#ids.get(hit.name);
      if (id !== undefined && passed[id]) fused[id]! += (weights.lexical * hit.score) / topLexical;
    }

    // Coverage adds at most its weight, so only a tool within that of the last one asked for can reach
    // the hits: those alone become hits, and only they are read for coverage.
    const floor = Math.max(largest(fused, passed, limit) - weights.coverage, Number.MIN_VALUE);
    const candidates: SearchHit[] = [];
    for (let id = 0; id < count; id++) {
      if (passed[id] && fused[id]! >= floor)
        candidates.push({ name: this.#documents[id]!.name, score: fused[id]! });
    }
    if (weights.coverage === 0 || candidates.length === 0) return selectTop(candidates, limit);
    const shares = this.index.coverage(
      query,
      candidates.map((hit) => hit.name),
    );
    candidates.forEach((hit, i) => {
      hit.score += weights.coverage * shares[i]!;
    });
    return selectTop(candidates, limit);
  }

  #passed(name: string, passed: Uint8Array): boolean {
    const id = this.#ids.get(name);
    return id !== undefined && passed[id] === 1;
  }
}

/**
 * The `rank`-th largest of the scores that passed (the smallest there is when fewer passed), without
 * making an object per tool: a query over 10,000 tools wants ten of them, kept in a short sorted window.
 */
function largest(scores: Float64Array, passed: Uint8Array, rank: number): number {
  // Past a few dozen, keeping a sorted window costs more than sorting what passed once.
  if (rank > 64) {
    const kept = scores.filter((_, id) => passed[id] === 1).sort();
    return kept[Math.max(0, kept.length - rank)] ?? 0;
  }
  const top: number[] = [];
  for (let id = 0; id < scores.length; id++) {
    const score = scores[id]!;
    if (!passed[id] || (top.length === rank && score <= top[rank - 1]!)) continue;
    let index = top.length;
    while (index > 0 && top[index - 1]! < score) index--;
    top.splice(index, 0, score);
    if (top.length > rank) top.pop();
  }
  return top.at(-1) ?? 0;
}
