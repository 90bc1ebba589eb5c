/**
 * @module PostgreSQL knowledge base: sources, chunks with an English tsvector under a GIN index, and vectors
 * as float4[] keyed by the chunk text's hash (pgvector is not assumed; vectors are compared in process).
 * Every statement names the tenant, and every read checks the reader's subjects against the source's
 * `auth_subjects` with `&&` in SQL.
 */
import type pg from "pg";
import {
  type ChunkLocation,
  KNOWLEDGE_LIMITS,
  type KnowledgeBase,
  type KnowledgeHit,
  type KnowledgeSource,
  type SourceKind,
  type SourceStatus,
  SupersededIngestError,
} from "../../ports/knowledge-base.js";
import {
  chunkIdOf,
  fuse,
  knowledgeQueryWords,
  newSourceId,
  rankByVector,
  rankByWords,
  sourceProblem,
  tooManySources,
} from "../../ports/knowledge-ranking.js";
import { decodeCursor, encodeCursor } from "../../ports/memory-words.js";
import { inTransaction } from "./transaction.js";

interface SourceRow {
  id: string;
  title: string;
  kind: SourceKind;
  origin: string;
  auth_subjects: string[];
  pending_subjects: string[] | null;
  generation: number;
  model: string;
  content_hash: string;
  status: SourceStatus;
  error: string | null;
  chunk_count: number;
  indexed_at: string | null;
  created_at: string;
}

interface ChunkRow {
  id: string;
  source_id: string;
  ordinal: number;
  text: string;
  text_hash: string;
  page: number | null;
  headings: string[];
  title: string;
  kind: SourceKind;
  origin: string;
}

const toSource = (row: SourceRow): KnowledgeSource => ({
  id: row.id,
  title: row.title,
  kind: row.kind,
  origin: row.origin,
  authSubjects: row.auth_subjects,
  ...(row.pending_subjects === null ? {} : { pendingSubjects: row.pending_subjects }),
  generation: row.generation,
  model: row.model,
  contentHash: row.content_hash,
  status: row.status,
  ...(row.error === null ? {} : { error: row.error }),
  chunkCount: row.chunk_count,
  ...(row.indexed_at === null ? {} : { indexedAt: Number(row.indexed_at) }),
  createdAt: Number(row.created_at),
});

const toHit = (row: ChunkRow, score: number): KnowledgeHit => {
  const location: ChunkLocation = { headings: row.headings };
  if (row.page !== null) location.page = row.page;
  return {
    chunk: {
      id: row.id,
      sourceId: row.source_id,
      ordinal: row.ordinal,
      text: row.text,
      textHash: row.text_hash,
      location,
    },
    source: { id: row.source_id, title: row.title, kind: row.kind, origin: row.origin },
    score,
  };
};

const SOURCE_COLUMNS =
  "id, title, kind, origin, auth_subjects, pending_subjects, generation, model, content_hash, status, error, chunk_count, indexed_at, created_at";
const CHUNK_COLUMNS =
  "c.id, c.source_id, c.ordinal, c.text, c.text_hash, c.page, c.headings, s.title, s.kind, s.origin";

/** The knowledge base in the quoted `schema` (migrated). */
export function createPostgresKnowledgeBase(pool: pg.Pool, schema: string): KnowledgeBase {
  const sources = `${schema}.knowledge_sources`;
  const chunks = `${schema}.knowledge_chunks`;
  const vectors = `${schema}.knowledge_vectors`;
  // $2 the reader's subjects; while a re-index is pending, its subjects must meet them too.
  const mayRead = `s.auth_subjects && $2::text[] AND (s.pending_subjects IS NULL OR s.pending_subjects && $2::text[])`;
  // $1 the tenant, $2 the reader's subjects.
  const visible = `${chunks} c JOIN ${sources} s ON s.tenant_id = c.tenant_id AND s.id = c.source_id
    WHERE s.tenant_id = $1 AND ${mayRead}`;
  const getSource = async (client: pg.Pool | pg.PoolClient, tenantId: string, id: string) => {
    const { rows } = await client.query<SourceRow>(
      `SELECT ${SOURCE_COLUMNS} FROM ${sources} WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0];
  };
  return {
    async begin(tenantId, init) {
      const problem = sourceProblem(init);
      if (problem) throw new RangeError(`a knowledge source needs ${problem}`);
      const fields = [init.title, init.kind, init.origin, [...init.authSubjects], init.model];
      if (init.id !== undefined) {
        const { rows } = await pool.query<SourceRow>(
          `UPDATE ${sources} SET title = $3, kind = $4, origin = $5, pending_subjects = $6, model = $7,
             generation = generation + 1, status = 'indexing', error = NULL
           WHERE tenant_id = $1 AND id = $2 RETURNING ${SOURCE_COLUMNS}`,
          [tenantId, init.id, ...fields],
        );
        return rows[0] && toSource(rows[0]);
      }
      // The count and the insert in one statement; two adds racing at the cap may pass it by one each.
      const { rows } = await pool.query<SourceRow>(
        `INSERT INTO ${sources} (tenant_id, id, title, kind, origin, auth_subjects, generation, model,
           content_hash, status, chunk_count, created_at)
         SELECT $1, $2, $3, $4, $5, $6, 1, $7, '', 'indexing', 0, $8
         WHERE (SELECT count(*) FROM ${sources} WHERE tenant_id = $1) < $9
         RETURNING ${SOURCE_COLUMNS}`,
        [tenantId, newSourceId(), ...fields, init.now, KNOWLEDGE_LIMITS.sourcesPerTenant],
      );
      if (!rows[0]) throw tooManySources();
      return toSource(rows[0]);
    },
    async knownVectors(tenantId, sourceId, model) {
      const { rows } = await pool.query<{ text_hash: string; vector: number[] }>(
        `SELECT text_hash, vector FROM ${vectors} WHERE tenant_id = $1 AND source_id = $2 AND model = $3`,
        [tenantId, sourceId, model],
      );
      return new Map(rows.map((row) => [row.text_hash, row.vector]));
    },
    async stageVectors(tenantId, sourceId, model, staged) {
      if (!(await getSource(pool, tenantId, sourceId)))
        throw new RangeError(`no knowledge source ${sourceId}`);
      if (staged.length === 0) return;
      // One statement for the batch: the hashes and vectors as parallel arrays (a vector as JSON text).
      await pool.query(
        `INSERT INTO ${vectors} (tenant_id, source_id, model, text_hash, vector)
         SELECT $1, $2, $3, h, ARRAY(SELECT jsonb_array_elements_text(v::jsonb)::float4)
         FROM unnest($4::text[], $5::text[]) AS staged(h, v)
         ON CONFLICT (tenant_id, source_id, model, text_hash) DO UPDATE SET vector = excluded.vector`,
        [
          tenantId,
          sourceId,
          model,
          staged.map((entry) => entry.textHash),
          staged.map((entry) => JSON.stringify(entry.vector)),
        ],
      );
    },
    async interrupted(tenantId, sourceId, reason) {
      await pool.query(
        `UPDATE ${sources} SET status = 'indexing', error = $3 WHERE tenant_id = $1 AND id = $2`,
        [tenantId, sourceId, reason],
      );
    },
    async commit(tenantId, sourceId, { contentHash, chunks: next, now, generation, note }) {
      return inTransaction(pool, async (client) => {
        // The source row locked: two commits of one source queue rather than interleave their chunks.
        const { rows } = await client.query<SourceRow>(
          `SELECT ${SOURCE_COLUMNS} FROM ${sources} WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
          [tenantId, sourceId],
        );
        const row = rows[0];
        if (!row) throw new RangeError(`no knowledge source ${sourceId}`);
        if (row.generation !== generation) throw new SupersededIngestError(sourceId);
        if (next.length > KNOWLEDGE_LIMITS.chunksPerSource)
          throw new RangeError(`a source holds at most ${KNOWLEDGE_LIMITS.chunksPerSource} chunks`);
        const held = await client.query<{ text_hash: string }>(
          `SELECT text_hash FROM ${vectors} WHERE tenant_id = $1 AND source_id = $2 AND model = $3`,
          [tenantId, sourceId, row.model],
        );
        const hashes = new Set(held.rows.map((r) => r.text_hash));
        const missing = next.find((c) => !hashes.has(c.textHash));
        if (missing) throw new RangeError(`no vector staged for chunk ${missing.textHash.slice(0, 12)}`);
        await client.query(`DELETE FROM ${chunks} WHERE tenant_id = $1 AND source_id = $2`, [
          tenantId,
          sourceId,
        ]);
        if (next.length > 0) {
          await client.query(
            `INSERT INTO ${chunks} (tenant_id, source_id, id, ordinal, text, text_hash, page, headings, words)
             SELECT $1, $2, id, ordinal, text, hash, page,
               ARRAY(SELECT jsonb_array_elements_text(headings::jsonb)), to_tsvector('english', text)
             FROM unnest($3::text[], $4::int[], $5::text[], $6::text[], $7::int[], $8::text[])
               AS c(id, ordinal, text, hash, page, headings)`,
            [
              tenantId,
              sourceId,
              next.map((c, ordinal) => chunkIdOf(sourceId, ordinal, c.textHash)),
              next.map((_, ordinal) => ordinal),
              next.map((c) => c.text),
              next.map((c) => c.textHash),
              next.map((c) => c.location.page ?? null),
              next.map((c) => JSON.stringify(c.location.headings)),
            ],
          );
        }
        await client.query(
          `DELETE FROM ${vectors} v WHERE v.tenant_id = $1 AND v.source_id = $2 AND (v.model <> $3 OR NOT EXISTS
             (SELECT 1 FROM ${chunks} c WHERE c.tenant_id = $1 AND c.source_id = $2 AND c.text_hash = v.text_hash))`,
          [tenantId, sourceId, row.model],
        );
        const updated = await client.query<SourceRow>(
          `UPDATE ${sources} SET status = 'ready', error = $6, content_hash = $3, chunk_count = $4, indexed_at = $5,
             auth_subjects = coalesce(pending_subjects, auth_subjects), pending_subjects = NULL
           WHERE tenant_id = $1 AND id = $2 RETURNING ${SOURCE_COLUMNS}`,
          [tenantId, sourceId, contentHash, next.length, now, note ?? null],
        );
        return toSource(updated.rows[0] as SourceRow);
      });
    },
    async get(tenantId, sourceId) {
      const row = await getSource(pool, tenantId, sourceId);
      return row && toSource(row);
    },
    async list(tenantId, { limit, after, subjects }) {
      const from = after === undefined ? undefined : decodeCursor(after);
      const size = Math.min(limit, KNOWLEDGE_LIMITS.listPage);
      // An operator's page ($5 true) holds every source; a reader's only the visible ones, filtered before LIMIT.
      const { rows } = await pool.query<SourceRow>(
        `SELECT ${SOURCE_COLUMNS} FROM ${sources} s WHERE tenant_id = $1 AND ($5 OR (${mayRead}))
           AND ($3::bigint IS NULL OR created_at < $3 OR (created_at = $3 AND id COLLATE "C" < $4::text))
         ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT $6`,
        [
          tenantId,
          [...(subjects ?? [])],
          from?.createdAt ?? null,
          from?.id ?? null,
          subjects === undefined,
          size + 1,
        ],
      );
      const page = rows.slice(0, size).map(toSource);
      const last = page[page.length - 1];
      return rows.length > size && last ? { sources: page, next: encodeCursor(last) } : { sources: page };
    },
    async remove(tenantId, sourceId) {
      return inTransaction(pool, async (client) => {
        await client.query(`DELETE FROM ${chunks} WHERE tenant_id = $1 AND source_id = $2`, [
          tenantId,
          sourceId,
        ]);
        await client.query(`DELETE FROM ${vectors} WHERE tenant_id = $1 AND source_id = $2`, [
          tenantId,
          sourceId,
        ]);
        const { rowCount } = await client.query(`DELETE FROM ${sources} WHERE tenant_id = $1 AND id = $2`, [
          tenantId,
          sourceId,
        ]);
        return rowCount === 1;
      });
    },
    async search({ tenantId, subjects }, { text, vector, limit, mode = "hybrid", minSimilarity }) {
      const reader = [tenantId, [...subjects]];
      const words = knowledgeQueryWords(text);
      // One snapshot for every read: both rankings and the rows returned see the same chunks.
      return inTransaction(pool, async (client) => {
        await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
        const matches = new Map<string, Set<string>>(words.map((word) => [word, new Set<string>()]));
        let count = 0;
        if (words.length > 0) {
          // Each word as its own plainto_tsquery: the stemmer reads it, no operator can come from it.
          const hits = await client.query<{ id: string; word: string }>(
            `SELECT c.id, w.word FROM ${visible.replace("WHERE", ", unnest($3::text[]) AS w(word) WHERE")}
               AND c.words @@ plainto_tsquery('english', w.word)`,
            [...reader, words],
          );
          for (const hit of hits.rows) matches.get(hit.word)?.add(hit.id);
          const total = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${visible}`, reader);
          count = Number(total.rows[0]?.n ?? 0);
        }
        const byWords = rankByWords(matches, count);
        let byVector: string[] = [];
        if (vector) {
          const candidates = await client.query<{ id: string; vector: number[] }>(
            `SELECT c.id, v.vector FROM ${visible.replace(
              "WHERE",
              `JOIN ${vectors} v ON v.tenant_id = c.tenant_id AND v.source_id = c.source_id AND v.model = s.model
                 AND v.text_hash = c.text_hash WHERE`,
            )} AND s.model = $3`,
            [...reader, vector.model],
          );
          byVector = rankByVector(
            candidates.rows,
            vector.values,
            minSimilarity ?? KNOWLEDGE_LIMITS.minSimilarity,
          );
        }
        const fused = fuse(byWords, byVector, mode, limit);
        if (fused.length === 0) return [];
        const { rows } = await client.query<ChunkRow>(
          `SELECT ${CHUNK_COLUMNS} FROM ${visible} AND c.id = ANY($3::text[])`,
          [...reader, fused.map((f) => f.id)],
        );
        const byId = new Map(rows.map((row) => [row.id, row]));
        return fused.flatMap(({ id, score }) => {
          const row = byId.get(id);
          return row ? [toHit(row, score)] : [];
        });
      });
    },
    async readChunk({ tenantId, subjects }, chunkId) {
      const { rows } = await pool.query<ChunkRow>(`SELECT ${CHUNK_COLUMNS} FROM ${visible} AND c.id = $3`, [
        tenantId,
        [...subjects],
        chunkId,
      ]);
      return rows[0] && toHit(rows[0], 0);
    },
  };
}
