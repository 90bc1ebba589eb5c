/**
 * @module What every MemoryStore adapter does the same way: the words a search looks for, the size check on a
 * memory's text, its id, and the cursor of a listed page, so the three adapters cannot drift apart on them.
 */
import { randomBytes } from "node:crypto";
import { MEMORY_LIMITS } from "./memory-store.js";

/** A new memory's id: unguessable, so an id seen in one principal's results says nothing of another's. */
export const newMemoryId = (): string => `mem_${randomBytes(8).toString("hex")}`;

/**
 * The distinct words of `text`, lower-case, letters and digits only: nothing an engine's query syntax could
 * read as an operator survives, so a query is never parsed as FTS5 or tsquery syntax.
 */
export function wordsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .normalize("NFKC")
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [],
    ),
  ];
}

/** The words a search looks for: the query's first `MEMORY_LIMITS.queryWords` distinct words. */
export const queryWords = (query: string): string[] => wordsOf(query).slice(0, MEMORY_LIMITS.queryWords);

/** A word with its accents removed, as SQLite's `remove_diacritics` and PostgreSQL's stemmers compare it. */
export function foldedWord(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "");
}

export function textTooLarge(text: string): boolean {
  return Buffer.byteLength(text, "utf8") > MEMORY_LIMITS.textBytes;
}

/** Where a newest-first page ended: the last memory's time and id, which break ties between equal times. */
export interface ListPosition {
  createdAt: number;
  id: string;
}

export const encodeCursor = ({ createdAt, id }: ListPosition): string => `${createdAt}.${id}`;

/** The position a cursor names; a cursor this code did not make is refused, not read as the first page. */
export function decodeCursor(cursor: string): ListPosition {
  const match = /^(\d{1,16})\.(.+)$/.exec(cursor);
  if (!match) throw new RangeError(`not a memory list cursor: ${JSON.stringify(cursor.slice(0, 40))}`);
  return { createdAt: Number(match[1]), id: match[2] as string };
}
