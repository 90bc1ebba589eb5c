/**
 * @module SQLite principal memory: a table of memories and an FTS5 index over their text and tags. Every
 * statement names the owner in its WHERE clause, from the method's required first argument; a search joins
 * the index back to the table so the owner is checked on the row itself. Ranked by how many of the query's
 * words a memory holds, then newest first: never by bm25, whose word weights come from the whole index
 * (every tenant's memories), so the order of one person's results would tell them what words others hold.
 */
import type Database from "better-sqlite3";
import { MEMORY_LIMITS, type Memory, type MemoryStore } from "../../ports/memory-store.js";
import {
  decodeCursor,
  encodeCursor,
  newMemoryId,
  queryWords,
  textTooLarge,
} from "../../ports/memory-words.js";

export interface SqliteMemoryStoreOptions {
  /** Default `MEMORY_LIMITS.memoriesPerPrincipal`; tests lower it. */
  maxMemories?: number;
}

interface MemoryRow {
  id: string;
  text: string;
  tags: string;
  created_at: number;
}

const toMemory = (row: MemoryRow): Memory => ({
  id: row.id,
  text: row.text,
  tags: JSON.parse(row.tags) as string[],
  createdAt: row.created_at,
});

// Tags are kept as JSON text; the index's tokenizer reads its brackets and quotes as separators.
const COLUMNS = "m.id, m.text, m.tags, m.created_at";

export function createSqliteMemoryStore(
  db: Database.Database,
  options: SqliteMemoryStoreOptions = {},
): MemoryStore {
  const maxMemories = options.maxMemories ?? MEMORY_LIMITS.memoriesPerPrincipal;
  // One statement counts and inserts under SQLite's write lock, so racing saves cannot pass the cap.
  const save = db.prepare<
    [{ tenant: string; principal: string; id: string; text: string; tags: string; at: number; cap: number }]
  >(
    `INSERT INTO memories (tenant_id, principal_id, id, text, tags, created_at)
     SELECT @tenant, @principal, @id, @text, @tags, @at
     WHERE (SELECT count(*) FROM memories WHERE tenant_id = @tenant AND principal_id = @principal) < @cap`,
  );
  // The owner's memories holding one word (quoted: FTS5 reads it as a string, never as an operator).
  const holding = db.prepare<[string, string, string], { seq: number; created_at: number; id: string }>(
    `SELECT m.seq, m.created_at, m.id FROM memories_fts f JOIN memories m ON m.seq = f.rowid
     WHERE m.tenant_id = ? AND m.principal_id = ? AND memories_fts MATCH ?`,
  );
  const bySeq = db.prepare<[number], MemoryRow>(`SELECT ${COLUMNS} FROM memories m WHERE m.seq = ?`);
  // One read transaction: every word is counted over the same memories.
  const ranked = db.transaction((tenant: string, principal: string, words: string[], size: number) => {
    const hits = new Map<number, { words: number; createdAt: number; id: string }>();
    for (const word of words) {
      for (const row of holding.all(tenant, principal, `"${word}"`)) {
        const hit = hits.get(row.seq);
        if (hit) hit.words++;
        else hits.set(row.seq, { words: 1, createdAt: row.created_at, id: row.id });
      }
    }
    return [...hits.entries()]
      .sort(([, a], [, b]) => b.words - a.words || b.createdAt - a.createdAt || b.id.localeCompare(a.id))
      .slice(0, size)
      .map(([seq]) => toMemory(bySeq.get(seq) as MemoryRow));
  });
  const forget = db.prepare<[string, string, string]>(
    "DELETE FROM memories WHERE tenant_id = ? AND principal_id = ? AND id = ?",
  );
  const list = db.prepare<[string, string, number, number, number, string, number], MemoryRow>(
    `SELECT ${COLUMNS} FROM memories m WHERE m.tenant_id = ? AND m.principal_id = ?
       AND (? = 0 OR m.created_at < ? OR (m.created_at = ? AND m.id < ?))
     ORDER BY m.created_at DESC, m.id DESC LIMIT ?`,
  );
  return {
    async save({ tenantId, principalId }, { text, tags = [], at }) {
      if (textTooLarge(text)) return { saved: false, reason: "too_large", limit: MEMORY_LIMITS.textBytes };
      const id = newMemoryId();
      const { changes } = save.run({
        tenant: tenantId,
        principal: principalId,
        id,
        text,
        tags: JSON.stringify(tags),
        at,
        cap: maxMemories,
      });
      if (changes === 0) return { saved: false, reason: "full", limit: maxMemories };
      return { saved: true, memory: { id, text, tags: [...tags], createdAt: at } };
    },
    async search({ tenantId, principalId }, { query, limit }) {
      const words = queryWords(query);
      if (words.length === 0) return [];
      return ranked(tenantId, principalId, words, Math.min(limit, MEMORY_LIMITS.searchResults));
    },
    async forget({ tenantId, principalId }, id) {
      return forget.run(tenantId, principalId, id).changes === 1;
    },
    async list({ tenantId, principalId }, { limit, after }) {
      const from = after === undefined ? undefined : decodeCursor(after);
      const size = Math.min(limit, MEMORY_LIMITS.listPage);
      const at = from?.createdAt ?? 0;
      const rows = list.all(tenantId, principalId, from ? 1 : 0, at, at, from?.id ?? "", size + 1);
      const memories = rows.slice(0, size).map(toMemory);
      const last = memories[memories.length - 1];
      return rows.length > size && last ? { memories, next: encodeCursor(last) } : { memories };
    },
  };
}
