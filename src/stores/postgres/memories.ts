/**
 * @module PostgreSQL principal memory: each memory's English lexemes in a GIN-indexed tsvector, searched with
 * `websearch_to_tsquery` and ranked by `ts_rank`. Every statement names the owner in its WHERE clause, from
 * the method's required first argument.
 */
import type pg from "pg";
import { MEMORY_LIMITS, type Memory, type MemoryStore } from "../../ports/memory-store.js";
import {
  decodeCursor,
  encodeCursor,
  newMemoryId,
  queryWords,
  textTooLarge,
} from "../../ports/memory-words.js";
import { underLock } from "./under-lock.js";

export interface PostgresMemoryStoreOptions {
  /** Default `MEMORY_LIMITS.memoriesPerPrincipal`; tests lower it. */
  maxMemories?: number;
}

interface MemoryRow {
  id: string;
  text: string;
  tags: string[];
  created_at: number;
}

const toMemory = (row: MemoryRow): Memory => ({
  id: row.id,
  text: row.text,
  tags: row.tags,
  createdAt: row.created_at,
});

const COLUMNS = "id, text, tags, created_at";
// Ids compare byte by byte, as the other adapters compare them, whatever the database's collation.
const NEWEST_FIRST = `created_at DESC, id COLLATE "C" DESC`;

/** The memory store in the quoted `schema` (migrated). */
export function createPostgresMemoryStore(
  pool: pg.Pool,
  schema: string,
  options: PostgresMemoryStoreOptions = {},
): MemoryStore {
  const maxMemories = options.maxMemories ?? MEMORY_LIMITS.memoriesPerPrincipal;
  const table = `${schema}.memories`;
  return {
    async save({ tenantId, principalId }, { text, tags = [], at }) {
      if (textTooLarge(text)) return { saved: false, reason: "too_large", limit: MEMORY_LIMITS.textBytes };
      const id = newMemoryId();
      // Saves of one owner queue on the lock, so two at once cannot both see room for one more. The
      // table (schema included) names the lock: deployments in other schemas never wait on it.
      const lock = `toolreg memory ${table} ${JSON.stringify([tenantId, principalId])}`;
      const inserted = await underLock(pool, lock, async (client) => {
        const { rowCount } = await client.query(
          `INSERT INTO ${table} (tenant_id, principal_id, id, text, tags, words, created_at)
           SELECT $1::text, $2::text, $3::text, $4::text, $5::text[],
             to_tsvector('english', $4::text || ' ' || array_to_string($5::text[], ' ')), $6::bigint
           WHERE (SELECT count(*) FROM ${table} WHERE tenant_id = $1 AND principal_id = $2) < $7::bigint`,
          [tenantId, principalId, id, text, [...tags], at, maxMemories],
        );
        return rowCount === 1;
      });
      if (!inserted) return { saved: false, reason: "full", limit: maxMemories };
      return { saved: true, memory: { id, text, tags: [...tags], createdAt: at } };
    },
    async search({ tenantId, principalId }, { query, limit }) {
      // "or" is websearch_to_tsquery's operator, and a stop word anyway; the other words cannot be operators.
      const words = queryWords(query).filter((word) => word !== "or");
      if (words.length === 0) return [];
      const { rows } = await pool.query<MemoryRow>(
        `SELECT ${COLUMNS} FROM ${table}, websearch_to_tsquery('english', $3) AS query
         WHERE tenant_id = $1 AND principal_id = $2 AND words @@ query
         ORDER BY ts_rank(words, query) DESC, ${NEWEST_FIRST} LIMIT $4`,
        [tenantId, principalId, words.join(" or "), Math.min(limit, MEMORY_LIMITS.searchResults)],
      );
      return rows.map(toMemory);
    },
    async forget({ tenantId, principalId }, id) {
      const { rowCount } = await pool.query(
        `DELETE FROM ${table} WHERE tenant_id = $1 AND principal_id = $2 AND id = $3`,
        [tenantId, principalId, id],
      );
      return rowCount === 1;
    },
    async list({ tenantId, principalId }, { limit, after }) {
      const from = after === undefined ? undefined : decodeCursor(after);
      const size = Math.min(limit, MEMORY_LIMITS.listPage);
      const { rows } = await pool.query<MemoryRow>(
        `SELECT ${COLUMNS} FROM ${table} WHERE tenant_id = $1 AND principal_id = $2
           AND ($3::bigint IS NULL OR created_at < $3 OR (created_at = $3 AND id COLLATE "C" < $4::text))
         ORDER BY ${NEWEST_FIRST} LIMIT $5`,
        [tenantId, principalId, from?.createdAt ?? null, from?.id ?? null, size + 1],
      );
      const memories = rows.slice(0, size).map(toMemory);
      const last = memories[memories.length - 1];
      return rows.length > size && last ? { memories, next: encodeCursor(last) } : { memories };
    },
  };
}
