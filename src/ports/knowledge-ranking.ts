/**
 * @module What every KnowledgeBase adapter does the same way: ids, the words a query looks for, the words
 * ranking (each matched word weighed by how rare it is among the chunks the reader may see, never among
 * other tenants'), cosine similarity, and reciprocal rank fusion of the two rankings with its similarity floor.
 */
import { createHash, randomBytes } from "node:crypto";
import { KNOWLEDGE_LIMITS, type KnowledgeSource, type NewSource, type SearchMode } from "./knowledge-base.js";
import { wordsOf } from "./memory-words.js";

export const newSourceId = (): string => `ks_${randomBytes(8).toString("hex")}`;

/** Same source, place and text, same id: a citation outlives a re-index that left its chunk unchanged. */
export const chunkIdOf = (sourceId: string, ordinal: number, textHash: string): string =>
  `kc_${createHash("sha256").update(`${sourceId}\n${ordinal}\n${textHash}`).digest("hex").slice(0, 20)}`;

export const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/** The words a search looks for: letters and digits only, so no engine reads one as query syntax. */
export const knowledgeQueryWords = (text: string): string[] =>
  wordsOf(text).slice(0, KNOWLEDGE_LIMITS.queryWords);

const CONTROL = /\p{Cc}/u;
const LONE_SURROGATE = /\p{Cs}/u;

/** Whether `text` holds a character no store keeps as text (PostgreSQL refuses NUL) or a broken one. */
export const hasUnstorableChar = (text: string): boolean =>
  text.includes("\u0000") || LONE_SURROGATE.test(text);

/** Why a new source cannot be kept, or undefined; every adapter refuses the same sources. */
export function sourceProblem(source: NewSource): string | undefined {
  if (source.title.trim() === "" || source.title.length > KNOWLEDGE_LIMITS.titleChars)
    return `a title of 1 to ${KNOWLEDGE_LIMITS.titleChars} characters`;
  if (CONTROL.test(source.title) || LONE_SURROGATE.test(source.title))
    return "a title without control characters or broken (lone surrogate) characters";
  const subjects = source.authSubjects;
  if (subjects.length === 0 || subjects.length > KNOWLEDGE_LIMITS.authSubjects)
    return `1 to ${KNOWLEDGE_LIMITS.authSubjects} subjects that may read it`;
  if (
    subjects.some(
      (s) =>
        s.trim() === "" ||
        s.length > KNOWLEDGE_LIMITS.subjectChars ||
        CONTROL.test(s) ||
        LONE_SURROGATE.test(s),
    )
  )
    return `each subject 1 to ${KNOWLEDGE_LIMITS.subjectChars} characters, no control character`;
  return undefined;
}

/** Whether a reader holding `subjects` may read a source readable by `authSubjects`. */
export const allowed = (authSubjects: readonly string[], subjects: readonly string[]): boolean =>
  authSubjects.some((subject) => subjects.includes(subject));

/** Whether a reader may read a source now: one of its subjects and, while a re-index is pending, one of those too. */
export const mayRead = (
  source: Pick<KnowledgeSource, "authSubjects" | "pendingSubjects">,
  subjects: readonly string[],
): boolean =>
  allowed(source.authSubjects, subjects) &&
  (source.pendingSubjects === undefined || allowed(source.pendingSubjects, subjects));

/** Refuses a new source past the tenant's cap; every adapter says it the same way. */
export const tooManySources = (): RangeError =>
  new RangeError(
    `the tenant holds ${KNOWLEDGE_LIMITS.sourcesPerTenant} knowledge sources, the most it may; remove one before adding another`,
  );

/**
 * Chunk ids best first by words: each query word a chunk holds adds its inverse document frequency among the
 * `visible` chunks (`matches` maps each word to the visible chunks holding it), ties by id.
 */
export function rankByWords(matches: ReadonlyMap<string, ReadonlySet<string>>, visible: number): string[] {
  const scores = new Map<string, number>();
  for (const holders of matches.values()) {
    if (holders.size === 0) continue;
    const idf = Math.log(1 + (visible - holders.size + 0.5) / (holders.size + 0.5));
    for (const id of holders) scores.set(id, (scores.get(id) ?? 0) + idf);
  }
  return [...scores.entries()]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, KNOWLEDGE_LIMITS.candidates)
    .map(([id]) => id);
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Chunk ids best first by similarity to `query`, those under the floor left out. */
export function rankByVector(
  candidates: Iterable<{ id: string; vector: ArrayLike<number> }>,
  query: readonly number[],
  floor: number,
): string[] {
  const scored: { id: string; similarity: number }[] = [];
  for (const { id, vector } of candidates) {
    const similarity = cosine(vector, query);
    if (similarity >= floor) scored.push({ id, similarity });
  }
  return scored
    .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1))
    .slice(0, KNOWLEDGE_LIMITS.candidates)
    .map(({ id }) => id);
}

/** Reciprocal rank fusion of the rankings `mode` uses: the best `limit` ids with their scores. */
export function fuse(
  words: readonly string[],
  vectors: readonly string[],
  mode: SearchMode,
  limit: number,
): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  const add = (ranking: readonly string[]) => {
    ranking.forEach((id, rank) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (KNOWLEDGE_LIMITS.fusionK + rank + 1));
    });
  };
  if (mode !== "vectors") add(words);
  if (mode !== "words") add(vectors);
  return [...scores.entries()]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, Math.min(limit, KNOWLEDGE_LIMITS.searchResults))
    .map(([id, score]) => ({ id, score }));
}
