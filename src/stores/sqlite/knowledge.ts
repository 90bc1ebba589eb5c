/**
 * @module SQLite knowledge base: sources, chunks with an FTS5 index over their text, and vectors as float32
 * blobs keyed by the chunk text's hash (so an unchanged chunk keeps its vector, and vectors staged by an
 * interrupted ingestion wait for the next). Every statement names the tenant, and every read joins the
 * source to check the reader's subjects against its `auth_subjects` in SQL. Vectors are compared in process.
 */
import type Database from "better-sqlite3";
import {
  type ChunkLocation,
  KNOWLEDGE_LIMITS,
  type KnowledgeBase,
  type KnowledgeChunk,
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

interface SourceRow {
  id: string;
  title: string;
  kind: SourceKind;
  origin: string;
  auth_subjects: string;
  pending_subjects: string | null;
  generation: number;
  model: string;
  content_hash: string;
  status: SourceStatus;
  error: string | null;
  chunk_count: number;
  indexed_at: number | null;
  created_at: number;
}

interface ChunkRow {
  id: string;
  source_id: string;
  ordinal: number;
  text: string;
  text_hash: string;
  page: number | null;
  headings: string;
  title: string;
  kind: SourceKind;
  origin: string;
}

const toSource = (row: SourceRow): KnowledgeSource => ({
  id: row.id,
  title: row.title,
  kind: row.kind,
  origin: row.origin,
  authSubjects: JSON.parse(row.auth_subjects) as string[],
  ...(row.pending_subjects === null ? {} : { pendingSubjects: JSON.parse(row.pending_subjects) as string[] }),
  generation: row.generation,
  model: row.model,
  contentHash: row.content_hash,
  status: row.status,
  ...(row.error === null ? {} : { error: row.error }),
  chunkCount: row.chunk_count,
  ...(row.indexed_at === null ? {} : { indexedAt: row.indexed_at }),
  createdAt: row.created_at,
});

const toHit = (row: ChunkRow, score: number): KnowledgeHit => {
  const location: ChunkLocation = { headings: JSON.parse(row.headings) as string[] };
  if (row.page !== null) location.page = row.page;
  const chunk: KnowledgeChunk = {
    id: row.id,
    sourceId: row.source_id,
    ordinal: row.ordinal,
    text: row.text,
    textHash: row.text_hash,
    location,
  };
  return {
    chunk,
    source: { id: row.source_id, title: row.title, kind: row.kind, origin: row.origin },
    score,
  };
};

const toBlob = (vector: readonly number[]) => Buffer.from(new Float32Array(vector).buffer);
const fromBlob = (blob: Buffer) =>
  new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));

// The reader's subjects arrive as one JSON array parameter; a source is visible when the two arrays meet,
// and, while a re-index is pending, its pending subjects meet them too.
const VISIBLE = `s.tenant_id = @tenant AND EXISTS (
  SELECT 1 FROM json_each(s.auth_subjects) a JOIN json_each(@subjects) r ON a.value = r.value)
  AND (s.pending_subjects IS NULL OR EXISTS (
  SELECT 1 FROM json_each(s.pending_subjects) p JOIN json_each(@subjects) r ON p.value = r.value))`;
const CHUNK_COLUMNS =
  "c.id, c.source_id, c.ordinal, c.text, c.text_hash, c.page, c.headings, s.title, s.kind, s.origin";
const FROM_VISIBLE = `knowledge_chunks c JOIN knowledge_sources s ON s.tenant_id = c.tenant_id AND s.id = c.source_id`;

export function createSqliteKnowledgeBase(db: Database.Database): KnowledgeBase {
  type Visible = { tenant: string; subjects: string };
  const getSource = db.prepare<[string, string], SourceRow>(
    "SELECT * FROM knowledge_sources WHERE tenant_id = ? AND id = ?",
  );
  const insertSource = db.prepare(
    `INSERT INTO knowledge_sources (tenant_id, id, title, kind, origin, auth_subjects, generation, model,
       content_hash, status, chunk_count, created_at)
     VALUES (@tenant, @id, @title, @kind, @origin, @subjects, 1, @model, '', 'indexing', 0, @now)`,
  );
  const sourceCount = db.prepare<[string], { n: number }>(
    "SELECT count(*) AS n FROM knowledge_sources WHERE tenant_id = ?",
  );
  const restartSource = db.prepare(
    `UPDATE knowledge_sources SET title = @title, kind = @kind, origin = @origin, pending_subjects = @subjects,
       generation = generation + 1, model = @model, status = 'indexing', error = NULL
     WHERE tenant_id = @tenant AND id = @id`,
  );
  const vectorsOf = db.prepare<[string, string, string], { text_hash: string; vector: Buffer }>(
    "SELECT text_hash, vector FROM knowledge_vectors WHERE tenant_id = ? AND source_id = ? AND model = ?",
  );
  const stage = db.prepare(
    `INSERT INTO knowledge_vectors (tenant_id, source_id, model, text_hash, vector)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET vector = excluded.vector`,
  );
  const interrupt = db.prepare(
    "UPDATE knowledge_sources SET status = 'indexing', error = ? WHERE tenant_id = ? AND id = ?",
  );
  const hasVector = db.prepare<[string, string, string, string], { one: number }>(
    "SELECT 1 AS one FROM knowledge_vectors WHERE tenant_id = ? AND source_id = ? AND model = ? AND text_hash = ?",
  );
  const dropChunks = db.prepare("DELETE FROM knowledge_chunks WHERE tenant_id = ? AND source_id = ?");
  const insertChunk = db.prepare(
    `INSERT INTO knowledge_chunks (tenant_id, source_id, id, ordinal, text, text_hash, page, headings)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Vectors no chunk of the source uses any more, staged ones of an abandoned text and other models' included.
  const pruneVectors = db.prepare(
    `DELETE FROM knowledge_vectors WHERE tenant_id = @tenant AND source_id = @id
       AND (model <> @model OR text_hash NOT IN
         (SELECT text_hash FROM knowledge_chunks WHERE tenant_id = @tenant AND source_id = @id))`,
  );
  const markReady = db.prepare(
    `UPDATE knowledge_sources SET status = 'ready', error = ?, content_hash = ?, chunk_count = ?, indexed_at = ?,
       auth_subjects = coalesce(pending_subjects, auth_subjects), pending_subjects = NULL
     WHERE tenant_id = ? AND id = ?`,
  );
  type ListParams = Visible & { all: number; from: number; at: number; id: string; size: number };
  // An operator's page (@all = 1) holds every source; a reader's only the visible ones, filtered before LIMIT.
  const list = db.prepare<[ListParams], SourceRow>(
    `SELECT s.* FROM knowledge_sources s WHERE s.tenant_id = @tenant AND (@all = 1 OR (${VISIBLE}))
       AND (@from = 0 OR s.created_at < @at OR (s.created_at = @at AND s.id < @id))
     ORDER BY s.created_at DESC, s.id DESC LIMIT @size`,
  );
  const removeSource = db.prepare("DELETE FROM knowledge_sources WHERE tenant_id = ? AND id = ?");
  const removeVectors = db.prepare("DELETE FROM knowledge_vectors WHERE tenant_id = ? AND source_id = ?");
  const visibleCount = db.prepare<[Visible], { n: number }>(
    `SELECT count(*) AS n FROM ${FROM_VISIBLE} WHERE ${VISIBLE}`,
  );
  // The visible chunks holding one word (quoted: FTS5 reads it as a string, never as an operator).
  const holding = db.prepare<[Visible & { match: string }], { id: string }>(
    `SELECT c.id FROM knowledge_chunks_fts f JOIN knowledge_chunks c ON c.seq = f.rowid
       JOIN knowledge_sources s ON s.tenant_id = c.tenant_id AND s.id = c.source_id
     WHERE ${VISIBLE} AND knowledge_chunks_fts MATCH @match`,
  );
  const visibleVectors = db.prepare<[Visible & { model: string }], { id: string; vector: Buffer }>(
    `SELECT c.id, v.vector FROM ${FROM_VISIBLE}
       JOIN knowledge_vectors v ON v.tenant_id = c.tenant_id AND v.source_id = c.source_id
         AND v.model = s.model AND v.text_hash = c.text_hash
     WHERE ${VISIBLE} AND s.model = @model`,
  );
  const visibleChunk = db.prepare<[Visible & { id: string }], ChunkRow>(
    `SELECT ${CHUNK_COLUMNS} FROM ${FROM_VISIBLE} WHERE ${VISIBLE} AND c.id = @id`,
  );

  const commit = db.transaction(
    (
      tenantId: string,
      sourceId: string,
      contentHash: string,
      chunks: readonly KnowledgeChunkInput[],
      now: number,
      generation: number,
      note: string | null,
    ) => {
      const row = getSource.get(tenantId, sourceId);
      if (!row) throw new RangeError(`no knowledge source ${sourceId}`);
      if (row.generation !== generation) throw new SupersededIngestError(sourceId);
      if (chunks.length > KNOWLEDGE_LIMITS.chunksPerSource)
        throw new RangeError(`a source holds at most ${KNOWLEDGE_LIMITS.chunksPerSource} chunks`);
      const missing = chunks.find((c) => !hasVector.get(tenantId, sourceId, row.model, c.textHash));
      if (missing) throw new RangeError(`no vector staged for chunk ${missing.textHash.slice(0, 12)}`);
      dropChunks.run(tenantId, sourceId);
      chunks.forEach((c, ordinal) => {
        insertChunk.run(
          tenantId,
          sourceId,
          chunkIdOf(sourceId, ordinal, c.textHash),
          ordinal,
          c.text,
          c.textHash,
          c.location.page ?? null,
          JSON.stringify(c.location.headings),
        );
      });
      pruneVectors.run({ tenant: tenantId, id: sourceId, model: row.model });
      markReady.run(note, contentHash, chunks.length, now, tenantId, sourceId);
      return toSource(getSource.get(tenantId, sourceId) as SourceRow);
    },
  );
  const stageAll = db.transaction(
    (
      tenantId: string,
      sourceId: string,
      model: string,
      vectors: readonly { textHash: string; vector: readonly number[] }[],
    ) => {
      if (!getSource.get(tenantId, sourceId)) throw new RangeError(`no knowledge source ${sourceId}`);
      for (const { textHash, vector } of vectors)
        stage.run(tenantId, sourceId, model, textHash, toBlob(vector));
    },
  );
  const create = db.transaction((values: Record<string, string | number>) => {
    if ((sourceCount.get(values.tenant as string) as { n: number }).n >= KNOWLEDGE_LIMITS.sourcesPerTenant)
      throw tooManySources();
    const id = newSourceId();
    insertSource.run({ ...values, id });
    return toSource(getSource.get(values.tenant as string, id) as SourceRow);
  });
  const remove = db.transaction((tenantId: string, sourceId: string) => {
    dropChunks.run(tenantId, sourceId);
    removeVectors.run(tenantId, sourceId);
    return removeSource.run(tenantId, sourceId).changes === 1;
  });
  // One read transaction: both rankings see the same chunks.
  const search = db.transaction(
    (
      visible: Visible,
      words: string[],
      vector: { model: string; values: readonly number[] } | undefined,
      floor: number,
    ) => {
      const matches = new Map<string, Set<string>>();
      for (const word of words) {
        matches.set(word, new Set(holding.all({ ...visible, match: `"${word}"` }).map((row) => row.id)));
      }
      const byWords = rankByWords(matches, (visibleCount.get(visible) as { n: number }).n);
      const byVector = vector
        ? rankByVector(
            visibleVectors
              .all({ ...visible, model: vector.model })
              .map((row) => ({ id: row.id, vector: fromBlob(row.vector) })),
            vector.values,
            floor,
          )
        : [];
      return { byWords, byVector };
    },
  );

  return {
    async begin(tenantId, init) {
      const problem = sourceProblem(init);
      if (problem) throw new RangeError(`a knowledge source needs ${problem}`);
      const values = {
        tenant: tenantId,
        title: init.title,
        kind: init.kind,
        origin: init.origin,
        subjects: JSON.stringify(init.authSubjects),
        model: init.model,
        now: init.now,
      };
      if (init.id !== undefined) {
        if (restartSource.run({ ...values, id: init.id }).changes === 0) return undefined;
        return toSource(getSource.get(tenantId, init.id) as SourceRow);
      }
      return create.immediate(values);
    },
    async knownVectors(tenantId, sourceId, model) {
      return new Map(
        vectorsOf.all(tenantId, sourceId, model).map((row) => [row.text_hash, [...fromBlob(row.vector)]]),
      );
    },
    async stageVectors(tenantId, sourceId, model, vectors) {
      stageAll(tenantId, sourceId, model, vectors);
    },
    async interrupted(tenantId, sourceId, reason) {
      interrupt.run(reason, tenantId, sourceId);
    },
    async commit(tenantId, sourceId, { contentHash, chunks, now, generation, note }) {
      return commit.immediate(tenantId, sourceId, contentHash, chunks, now, generation, note ?? null);
    },
    async get(tenantId, sourceId) {
      const row = getSource.get(tenantId, sourceId);
      return row && toSource(row);
    },
    async list(tenantId, { limit, after, subjects }) {
      const from = after === undefined ? undefined : decodeCursor(after);
      const size = Math.min(limit, KNOWLEDGE_LIMITS.listPage);
      const rows = list.all({
        tenant: tenantId,
        subjects: JSON.stringify(subjects ?? []),
        all: subjects === undefined ? 1 : 0,
        from: from ? 1 : 0,
        at: from?.createdAt ?? 0,
        id: from?.id ?? "",
        size: size + 1,
      });
      const sources = rows.slice(0, size).map(toSource);
      const last = sources[sources.length - 1];
      return rows.length > size && last ? { sources, next: encodeCursor(last) } : { sources };
    },
    async remove(tenantId, sourceId) {
      return remove.immediate(tenantId, sourceId);
    },
    async search({ tenantId, subjects }, { text, vector, limit, mode = "hybrid", minSimilarity }) {
      const visible = { tenant: tenantId, subjects: JSON.stringify(subjects) };
      const { byWords, byVector } = search(
        visible,
        knowledgeQueryWords(text),
        vector,
        minSimilarity ?? KNOWLEDGE_LIMITS.minSimilarity,
      );
      return fuse(byWords, byVector, mode, limit).flatMap(({ id, score }) => {
        const row = visibleChunk.get({ ...visible, id });
        return row ? [toHit(row, score)] : [];
      });
    },
    async readChunk({ tenantId, subjects }, chunkId) {
      const row = visibleChunk.get({ tenant: tenantId, subjects: JSON.stringify(subjects), id: chunkId });
      return row && toHit(row, 0);
    },
  };
}

type KnowledgeChunkInput = Parameters<KnowledgeBase["commit"]>[2]["chunks"][number];
