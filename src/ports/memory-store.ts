/**
 * @module The port for principal memory: short notes a person's agent keeps across runs. Every method takes
 * the owner — tenant and principal — as its first, required argument, and every adapter puts it in the query
 * itself, so a colleague in the same tenant never sees, finds or forgets another person's memories.
 */

/** Whose memories: the tenant and the principal within it, both from the execution context, never from input. */
export interface MemoryOwner {
  tenantId: string;
  principalId: string;
}

export interface Memory {
  id: string;
  text: string;
  /** Short labels the model chose, lower-case; searched with the text. */
  tags: string[];
  /** Epoch milliseconds. */
  createdAt: number;
}

export interface NewMemory {
  text: string;
  tags?: readonly string[];
  /** Epoch milliseconds; the store keeps no clock of its own. */
  at: number;
}

/** What one principal may keep: enough for a working memory, small enough that a search stays cheap. */
export const MEMORY_LIMITS = {
  memoriesPerPrincipal: 1_000,
  textBytes: 4_096,
  tags: 8,
  tagChars: 40,
  /** A search looks for at most this many distinct words of its query. */
  queryWords: 32,
  searchResults: 50,
  listPage: 100,
} as const;

export type SaveOutcome =
  | { saved: true; memory: Memory }
  /** The principal already keeps `limit` memories; one must be forgotten first. */
  | { saved: false; reason: "full"; limit: number }
  /** The text is longer than `limit` bytes of UTF-8. */
  | { saved: false; reason: "too_large"; limit: number };

export interface MemorySearch {
  query: string;
  /** At most this many, best first; at most `MEMORY_LIMITS.searchResults`. */
  limit: number;
}

export interface MemoryListPage {
  /** Newest first. */
  memories: Memory[];
  /** Given back as `after` for the next page; absent on the last page. */
  next?: string;
}

export interface MemoryStore {
  /** Keeps one memory, unless the owner is at the count cap or the text over the size cap (checked in the same step). */
  save(owner: MemoryOwner, memory: NewMemory): Promise<SaveOutcome>;
  /**
   * The owner's memories that hold any word of `query` (in the text or a tag), the ones holding more of its
   * words first; empty when none does or the query has no word. Each engine ranks as it does best (SQLite
   * FTS5's bm25, PostgreSQL's ts_rank, word counts in memory); stemming may find more than the exact word.
   */
  search(owner: MemoryOwner, search: MemorySearch): Promise<Memory[]>;
  /** Deletes one of the owner's memories; false when the owner has none with that id (another's included). */
  forget(owner: MemoryOwner, id: string): Promise<boolean>;
  /** The owner's memories, newest first, `limit` at a time, after the cursor a previous page gave. */
  list(owner: MemoryOwner, page: { limit: number; after?: string | undefined }): Promise<MemoryListPage>;
}
