/** @module `ToolSearchIndex`: field-weighted BM25 (BM25F) over tool names, descriptions, parameters and category. */

import { schemaText } from "./schema-text.js";
import { tokenize } from "./tokenize.js";

/** What the index reads from a tool; both registry tools and benchmark rows fit this shape. */
export interface SearchDocument {
  name: string;
  description: string;
  category?: string | undefined;
  /** A JSON Schema of the input; its property names and descriptions are indexed. */
  parameters?: unknown;
}

/** The fields a document is indexed under, each with its own weight and length normalisation. */
export const SEARCH_FIELDS = ["name", "description", "parameters", "category"] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export interface ToolSearchIndexOptions {
  /** Term-frequency saturation; higher lets repeated terms count for more. */
  k1?: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b?: number;
  /** Per-field multipliers of term frequency. */
  weights?: Partial<Record<SearchField, number>>;
}

export interface SearchOptions {
  /** Most hits to return; 10 unless given. */
  limit?: number;
  /** Keeps only documents it returns true for, e.g. what this caller may use; asked best-ranked first. */
  filter?: (document: SearchDocument) => boolean;
}

export interface SearchHit {
  name: string;
  score: number;
}

/** Defaults tuned on the bench-data sets as a whole (see bench/search.ts), never per case. */
export const DEFAULT_SEARCH_OPTIONS: Required<ToolSearchIndexOptions> & {
  weights: Record<SearchField, number>;
} = {
  k1: 1.2,
  b: 0.5,
  weights: { name: 2, description: 1, parameters: 0.6, category: 0.5 },
};

/** Unique query terms read; a longer query adds cost without adding signal. */
const MAX_QUERY_TERMS = 64;
const FIELD_COUNT = SEARCH_FIELDS.length;

interface Entry {
  document: SearchDocument;
  /** Term → frequency in each field, in SEARCH_FIELDS order. */
  terms: Map<string, number[]>;
  lengths: number[];
  /** weight / (1 − b + b · length / average length) per field; recomputed when the collection changes. */
  norms: Float64Array;
}

interface CompiledPosting {
  ids: Int32Array;
  contributions: Float64Array;
}

/** An inverted index over tool documents; `search` touches only the postings of the query's terms. */
export class ToolSearchIndex {
  readonly #k1: number;
  readonly #b: number;
  readonly #weights: number[];
  readonly #entries: (Entry | undefined)[] = [];
  readonly #ids = new Map<string, number>();
  readonly #free: number[] = [];
  readonly #postings = new Map<string, Map<number, number[]>>();
  readonly #totalLengths = new Array<number>(FIELD_COUNT).fill(0);
  readonly #compiledPostings = new Map<string, CompiledPosting>();
  #stale = true;
  #scores = new Float64Array(0);

  constructor(documents: Iterable<SearchDocument> = [], options: ToolSearchIndexOptions = {}) {
    this.#k1 = options.k1 ?? DEFAULT_SEARCH_OPTIONS.k1;
    this.#b = options.b ?? DEFAULT_SEARCH_OPTIONS.b;
    this.#weights = SEARCH_FIELDS.map(
      (field) => options.weights?.[field] ?? DEFAULT_SEARCH_OPTIONS.weights[field],
    );
    for (const document of documents) this.add(document);
  }

  /** Number of indexed documents. */
  get size(): number {
    return this.#ids.size;
  }

  /** Whether a document of that name is indexed. */
  has(name: string): boolean {
    return this.#ids.has(name);
  }

  /** Indexes a document, replacing any earlier one of the same name. */
  add(document: SearchDocument): void {
    this.remove(document.name);
    const fieldTexts = [
      document.name,
      document.description,
      schemaText(document.parameters),
      document.category ?? "",
    ];
    const terms = new Map<string, number[]>();
    const lengths = fieldTexts.map((text, field) => {
      const tokens = tokenize(text);
      for (const token of tokens) {
        let frequencies = terms.get(token);
        if (!frequencies) {
          frequencies = new Array<number>(FIELD_COUNT).fill(0);
          terms.set(token, frequencies);
        }
        frequencies[field] = (frequencies[field] ?? 0) + 1;
      }
      return tokens.length;
    });
    const id = this.#free.pop() ?? this.#entries.length;
    this.#entries[id] = { document, terms, lengths, norms: new Float64Array(FIELD_COUNT) };
    this.#ids.set(document.name, id);
    for (const [term, frequencies] of terms) {
      let posting = this.#postings.get(term);
      if (!posting) {
        posting = new Map();
        this.#postings.set(term, posting);
      }
      posting.set(id, frequencies);
    }
    lengths.forEach((length, field) => {
      this.#totalLengths[field] = (this.#totalLengths[field] ?? 0) + length;
    });
    this.#stale = true;
  }

  /** Removes the document of that name; returns whether there was one. */
  remove(name: string): boolean {
    const id = this.#ids.get(name);
    if (id === undefined) return false;
    const entry = this.#entries[id];
    if (entry) {
      for (const term of entry.terms.keys()) {
        const posting = this.#postings.get(term);
        posting?.delete(id);
        if (posting?.size === 0) this.#postings.delete(term);
      }
      entry.lengths.forEach((length, field) => {
        this.#totalLengths[field] = (this.#totalLengths[field] ?? 0) - length;
      });
    }
    this.#entries[id] = undefined;
    this.#ids.delete(name);
    this.#free.push(id);
    this.#stale = true;
    return true;
  }

  /** Ranks documents for a free-text query: best first, ties by name; documents matching no term are left out. */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const limit = Math.max(0, Math.floor(options.limit ?? 10));
    if (limit === 0 || this.#ids.size === 0) return [];
    this.#refresh();
    const terms = [...new Set(tokenize(query))].slice(0, MAX_QUERY_TERMS);
    const scores = this.#scores;
    const touched: number[] = [];
    for (const term of terms) {
      const compiled = this.#compiled(term);
      if (!compiled) continue;
      const { ids, contributions } = compiled;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        if (scores[id] === 0) touched.push(id);
        scores[id]! += contributions[i]!;
      }
    }
    const hits: SearchHit[] = [];
    for (const id of touched) {
      const score = scores[id]!;
      scores[id] = 0;
      hits.push({ name: this.#entries[id]!.document.name, score });
    }
    const filter = options.filter;
    if (!filter) return selectTop(hits, limit);
    // The filter (authorization, for find_tools) is asked about the best hits first, in a window that
    // widens only while too few pass: a filtered prefix of the ranking is the ranking of what passes.
    for (let window = limit * 2; ; window *= 4) {
      const top = selectTop(hits, window);
      const passed = top.filter((hit) => filter(this.#entries[this.#ids.get(hit.name)!]!.document));
      if (passed.length >= limit || top.length === hits.length) return passed.slice(0, limit);
    }
  }

  /**
   * For each named document, the share of the query's weight (the inverse document frequencies of its
   * terms) that the document holds, 0 to 1; 0 for a name not indexed. A term no document holds still
   * counts in the whole, so a query the catalogue barely speaks to covers little of any tool.
   */
  coverage(query: string, names: readonly string[]): number[] {
    const terms = [...new Set(tokenize(query))].slice(0, MAX_QUERY_TERMS);
    const weights = terms.map((term) => this.#idf(this.#postings.get(term)?.size ?? 0));
    const whole = weights.reduce((sum, weight) => sum + weight, 0);
    return names.map((name) => {
      const id = this.#ids.get(name);
      const entry = id === undefined ? undefined : this.#entries[id];
      if (!entry || whole === 0) return 0;
      let held = 0;
      for (let i = 0; i < terms.length; i++) if (entry.terms.has(terms[i]!)) held += weights[i]!;
      return held / whole;
    });
  }

  #idf(documentFrequency: number): number {
    return Math.log(1 + (this.#ids.size - documentFrequency + 0.5) / (documentFrequency + 0.5));
  }

  // A term's BM25 contribution to each document is fixed until the collection changes, so it is computed
  // once per term and change, and a query is a sum over flat arrays.
  #compiled(term: string): CompiledPosting | undefined {
    const cached = this.#compiledPostings.get(term);
    if (cached) return cached;
    const posting = this.#postings.get(term);
    if (!posting) return undefined;
    const idf = this.#idf(posting.size);
    const ids: number[] = [];
    const contributions: number[] = [];
    for (const [id, frequencies] of posting) {
      const norms = this.#entries[id]!.norms;
      let frequency = 0;
      for (let field = 0; field < FIELD_COUNT; field++)
        frequency += (frequencies[field] ?? 0) * norms[field]!;
      if (frequency <= 0) continue;
      ids.push(id);
      contributions.push((idf * frequency * (this.#k1 + 1)) / (frequency + this.#k1));
    }
    const compiled = { ids: Int32Array.from(ids), contributions: Float64Array.from(contributions) };
    this.#compiledPostings.set(term, compiled);
    return compiled;
  }

  // Average field lengths move with every add and remove; folding them into per-document factors once per
  // change keeps the query loop to a multiply-add per field.
  #refresh(): void {
    if (this.#scores.length < this.#entries.length) this.#scores = new Float64Array(this.#entries.length * 2);
    if (!this.#stale) return;
    const count = Math.max(1, this.#ids.size);
    const averages = this.#totalLengths.map((length) => Math.max(length / count, 1e-9));
    for (const entry of this.#entries) {
      if (!entry) continue;
      for (let field = 0; field < FIELD_COUNT; field++) {
        const relative = (entry.lengths[field] ?? 0) / averages[field]!;
        entry.norms[field] = this.#weights[field]! / (1 - this.#b + this.#b * relative);
      }
    }
    this.#compiledPostings.clear();
    this.#stale = false;
  }
}

/** Orders hits best first, ties by name (code-point order, so the result does not depend on locale). */
export function compareHits(left: SearchHit, right: SearchHit): number {
  if (left.score !== right.score) return right.score - left.score;
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

/** The best `limit` hits, in order. A full sort of thousands costs more than their scoring; this keeps a window. */
export function selectTop(hits: SearchHit[], limit: number): SearchHit[] {
  if (hits.length <= limit * 4) return hits.sort(compareHits).slice(0, limit);
  const top: SearchHit[] = [];
  for (const hit of hits) {
    if (top.length === limit && compareHits(hit, top[limit - 1]!) >= 0) continue;
    let index = top.length;
    while (index > 0 && compareHits(hit, top[index - 1]!) < 0) index--;
    top.splice(index, 0, hit);
    if (top.length > limit) top.pop();
  }
  return top;
}
