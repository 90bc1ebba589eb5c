/**
 * @module `CharacterNgramIndex`: TF-IDF cosine over the 3- to 5-character pieces of a text. It meets words
 * that a stemmer keeps apart ("genetically" and "genetic", "similar" and "similarity", a typo, a word in
 * another language that shares a stem), which is what a weak sentence model and BM25 both miss between
 * near-duplicate tools.
 */

import { splitIdentifier } from "./tokenize.js";

const SHORTEST = 3;
const LONGEST = 5;
/** Characters of a text read; past a paragraph, more pieces add cost, not signal. */
const MAX_CHARACTERS = 1_000;

interface Entry {
  /** Vocabulary ids of the text's pieces, each once, with how often it occurs. */
  grams: Uint32Array;
  counts: Uint16Array;
}

/**
 * An inverted index of character pieces over texts the caller numbers (small whole numbers, reused after
 * `delete`), so a search writes into a flat array by the caller's own ids instead of building a map of
 * every text that shares a piece — with common pieces, that is nearly all of them.
 */
export class CharacterNgramIndex {
  /** Piece hash → vocabulary id. */
  #vocabulary = new Map<number, number>();
  /** Texts holding each vocabulary piece. */
  #documentFrequency = new Uint32Array(1024);
  /** Scratch counts of one text's pieces, by vocabulary id; all zero between calls. */
  #tally = new Uint32Array(1024);
  readonly #entries: (Entry | undefined)[] = [];
  #count = 0;
  #stale = true;
  // Postings, rebuilt when the collection changes: the texts holding piece g are
  // #postingIds[#offsets[g] .. #offsets[g + 1]), each with its normalised weight beside it.
  #offsets = new Uint32Array(1);
  #postingIds = new Uint32Array(0);
  #postingWeights = new Float32Array(0);
  #inverseFrequency = new Float64Array(0);

  /** Number of indexed texts. */
  get size(): number {
    return this.#count;
  }

  /** Indexes a text under `id`, replacing any text indexed under it before. */
  set(id: number, text: string): void {
    this.delete(id);
    const seen: number[] = [];
    forEachNgram(text, (hash) => {
      const gram = this.#gramId(hash);
      if (this.#tally[gram]!++ === 0) seen.push(gram);
    });
    const grams = Uint32Array.from(seen);
    const counts = new Uint16Array(grams.length);
    for (let i = 0; i < grams.length; i++) {
      const gram = grams[i]!;
      counts[i] = Math.min(this.#tally[gram]!, 0xffff);
      this.#tally[gram] = 0;
      this.#documentFrequency[gram]! += 1;
    }
    this.#entries[id] = { grams, counts };
    this.#count++;
    this.#stale = true;
  }

  /** Removes the text indexed under `id`; returns whether there was one. */
  delete(id: number): boolean {
    const entry = this.#entries[id];
    if (!entry) return false;
    for (const gram of entry.grams) this.#documentFrequency[gram]! -= 1;
    this.#entries[id] = undefined;
    this.#count--;
    this.#stale = true;
    return true;
  }

  /**
   * Adds each indexed text's cosine with the query to `scores[id]`; `scores` must have room for every id
   * in use. Only the order within one query means anything: the query's own length is not divided out.
   */
  similarities(query: string, scores: Float64Array): void {
    if (this.#count === 0) return;
    this.refresh();
    const seen: number[] = [];
    forEachNgram(query, (hash) => {
      const gram = this.#vocabulary.get(hash);
      if (gram !== undefined && this.#tally[gram]!++ === 0) seen.push(gram);
    });
    for (const gram of seen) {
      const weight = (1 + Math.log(this.#tally[gram]!)) * this.#inverseFrequency[gram]!;
      this.#tally[gram] = 0;
      const end = this.#offsets[gram + 1]!;
      for (let i = this.#offsets[gram]!; i < end; i++) {
        scores[this.#postingIds[i]!]! += weight * this.#postingWeights[i]!;
      }
    }
  }

  #gramId(hash: number): number {
    let id = this.#vocabulary.get(hash);
    if (id === undefined) {
      id = this.#vocabulary.size;
      this.#vocabulary.set(hash, id);
      if (id >= this.#documentFrequency.length) {
        this.#documentFrequency = grown(this.#documentFrequency);
        this.#tally = grown(this.#tally);
      }
    }
    return id;
  }

  /**
   * Rebuilds the postings after changes, as the next query would; a host calls it after a batch so that
   * no query pays for it. Inverse frequencies move with every change, and with them every text's length:
   * folding both into one weight per posting once per change keeps a query to a multiply-add per posting.
   */
  refresh(): void {
    if (!this.#stale) return;
    this.#forgetUnusedPieces();
    const pieces = this.#vocabulary.size;
    const inverse = new Float64Array(pieces);
    const offsets = new Uint32Array(pieces + 1);
    for (let gram = 0; gram < pieces; gram++) {
      const frequency = this.#documentFrequency[gram]!;
      inverse[gram] = Math.log((this.#count + 1) / (frequency + 1)) + 1;
      offsets[gram + 1] = offsets[gram]! + frequency;
    }
    const ids = new Uint32Array(offsets[pieces]!);
    const weights = new Float32Array(ids.length);
    const next = offsets.slice(0, pieces);
    let scratch = new Float64Array(64);
    for (let id = 0; id < this.#entries.length; id++) {
      const entry = this.#entries[id];
      if (!entry) continue;
      const { grams, counts } = entry;
      if (scratch.length < grams.length) scratch = new Float64Array(grams.length * 2);
      let norm = 0;
      for (let i = 0; i < grams.length; i++) {
        const weight = (1 + Math.log(counts[i]!)) * inverse[grams[i]!]!;
        scratch[i] = weight;
        norm += weight * weight;
      }
      norm = Math.sqrt(norm) || 1;
      for (let i = 0; i < grams.length; i++) {
        const slot = next[grams[i]!]!++;
        ids[slot] = id;
        weights[slot] = scratch[i]! / norm;
      }
    }
    this.#inverseFrequency = inverse;
    this.#offsets = offsets;
    this.#postingIds = ids;
    this.#postingWeights = weights;
    this.#stale = false;
  }

  // Pieces of deleted texts stay in the vocabulary until they outnumber the live ones; then the vocabulary
  // is renumbered, so a long-lived index with churn does not rebuild postings for pieces nothing holds.
  #forgetUnusedPieces(): void {
    const pieces = this.#vocabulary.size;
    let live = 0;
    for (let gram = 0; gram < pieces; gram++) if (this.#documentFrequency[gram]! > 0) live++;
    if (pieces - live <= live) return;
    const renumbered = new Int32Array(pieces).fill(-1);
    const vocabulary = new Map<number, number>();
    const frequency = new Uint32Array(Math.max(1024, live * 2));
    for (const [hash, gram] of this.#vocabulary) {
      if (this.#documentFrequency[gram] === 0) continue;
      renumbered[gram] = vocabulary.size;
      frequency[vocabulary.size] = this.#documentFrequency[gram]!;
      vocabulary.set(hash, vocabulary.size);
    }
    for (const entry of this.#entries) {
      if (!entry) continue;
      for (let i = 0; i < entry.grams.length; i++) entry.grams[i] = renumbered[entry.grams[i]!]!;
    }
    this.#vocabulary = vocabulary;
    this.#documentFrequency = frequency;
    this.#tally = new Uint32Array(frequency.length);
  }
}

function grown(array: Uint32Array): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(array.length * 2);
  larger.set(array);
  return larger;
}

/**
 * Calls `visit` with a hash of each 3-, 4- and 5-character piece of a text in lower case, its words
 * separated by one space and the whole padded by one, so a piece at a word's edge says so (" tri" begins
 * "triangle"). Pieces are hashed (FNV-1a, 30 bits, the length mixed in) rather than sliced out: a
 * catalogue of 10,000 tools has millions of them, and two pieces sharing a hash only blur one weight.
 */
export function forEachNgram(text: string, visit: (hash: number) => void): void {
  // Splitting shortens runs of separators and adds a space per case change, so it reads four times the
  // characters kept: enough for any description, and a bound on what a hostile text costs.
  const words = splitIdentifier(text.slice(0, MAX_CHARACTERS * 4))
    .toLowerCase()
    .trim();
  if (words === "") return;
  const padded = ` ${words.slice(0, MAX_CHARACTERS)} `;
  for (let start = 0; start + SHORTEST <= padded.length; start++) {
    let hash = 0x811c9dc5;
    for (let length = 1; length <= LONGEST && start + length <= padded.length; length++) {
      hash = Math.imul(hash ^ padded.charCodeAt(start + length - 1), 0x01000193);
      if (length >= SHORTEST) visit(Math.imul(hash ^ length, 0x01000193) >>> 2);
    }
  }
}
