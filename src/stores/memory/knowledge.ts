/**
 * @module The reference KnowledgeBase, in process: one map per tenant, so a lookup starts from the tenant and
 * can reach nothing else; a chunk is seen only when the reader holds one of its source's subjects. Words
 * match whole, case and accents folded, unstemmed.
 */
import {
  KNOWLEDGE_LIMITS,
  type KnowledgeBase,
  type KnowledgeChunk,
  type KnowledgeHit,
  type KnowledgeSource,
  SupersededIngestError,
} from "../../ports/knowledge-base.js";
import {
  chunkIdOf,
  fuse,
  knowledgeQueryWords,
  mayRead,
  newSourceId,
  rankByVector,
  rankByWords,
  sourceProblem,
  tooManySources,
} from "../../ports/knowledge-ranking.js";
import { decodeCursor, encodeCursor, foldedWord, wordsOf } from "../../ports/memory-words.js";

interface Held {
  source: KnowledgeSource;
  chunks: (KnowledgeChunk & { terms: Set<string> })[];
  /** model → text hash → vector: committed chunks' and staged ones. */
  vectors: Map<string, Map<string, number[]>>;
}

const termOf = (word: string) => foldedWord(word);
const copySource = (source: KnowledgeSource): KnowledgeSource => ({
  ...source,
  authSubjects: [...source.authSubjects],
  ...(source.pendingSubjects ? { pendingSubjects: [...source.pendingSubjects] } : {}),
});
const hitOf = (held: Held, chunk: KnowledgeChunk, score: number): KnowledgeHit => ({
  chunk: {
    id: chunk.id,
    sourceId: chunk.sourceId,
    ordinal: chunk.ordinal,
    text: chunk.text,
    textHash: chunk.textHash,
    location: { ...chunk.location, headings: [...chunk.location.headings] },
  },
  source: {
    id: held.source.id,
    title: held.source.title,
    kind: held.source.kind,
    origin: held.source.origin,
  },
  score,
});

export function createMemoryKnowledgeBase(): KnowledgeBase {
  const tenants = new Map<string, Map<string, Held>>();
  const sourcesOf = (tenantId: string) => {
    const sources = tenants.get(tenantId) ?? new Map<string, Held>();
    tenants.set(tenantId, sources);
    return sources;
  };
  const held = (tenantId: string, sourceId: string) => tenants.get(tenantId)?.get(sourceId);
  return {
    async begin(tenantId, init) {
      const problem = sourceProblem(init);
      if (problem) throw new RangeError(`a knowledge source needs ${problem}`);
      const fields = {
        title: init.title,
        kind: init.kind,
        origin: init.origin,
        model: init.model,
        status: "indexing" as const,
      };
      if (init.id !== undefined) {
        const existing = held(tenantId, init.id);
        if (!existing) return undefined;
        const { error: _dropped, ...rest } = existing.source;
        existing.source = {
          ...rest,
          ...fields,
          pendingSubjects: [...init.authSubjects],
          generation: rest.generation + 1,
        };
        return copySource(existing.source);
      }
      if (sourcesOf(tenantId).size >= KNOWLEDGE_LIMITS.sourcesPerTenant) throw tooManySources();
      const source: KnowledgeSource = {
        id: newSourceId(),
        ...fields,
        authSubjects: [...init.authSubjects],
        generation: 1,
        contentHash: "",
        chunkCount: 0,
        createdAt: init.now,
      };
      sourcesOf(tenantId).set(source.id, { source, chunks: [], vectors: new Map() });
      return copySource(source);
    },
    async knownVectors(tenantId, sourceId, model) {
      const vectors = held(tenantId, sourceId)?.vectors.get(model);
      return new Map([...(vectors ?? [])].map(([hash, vector]) => [hash, [...vector]]));
    },
    async stageVectors(tenantId, sourceId, model, vectors) {
      const source = held(tenantId, sourceId);
      if (!source) throw new RangeError(`no knowledge source ${sourceId}`);
      const byHash = source.vectors.get(model) ?? new Map<string, number[]>();
      source.vectors.set(model, byHash);
      for (const { textHash, vector } of vectors) byHash.set(textHash, [...vector]);
    },
    async interrupted(tenantId, sourceId, reason) {
      const source = held(tenantId, sourceId);
      if (source) source.source = { ...source.source, status: "indexing", error: reason };
    },
    async commit(tenantId, sourceId, { contentHash, chunks, now, generation, note }) {
      const source = held(tenantId, sourceId);
      if (!source) throw new RangeError(`no knowledge source ${sourceId}`);
      if (source.source.generation !== generation) throw new SupersededIngestError(sourceId);
      if (chunks.length > KNOWLEDGE_LIMITS.chunksPerSource)
        throw new RangeError(`a source holds at most ${KNOWLEDGE_LIMITS.chunksPerSource} chunks`);
      const vectors = source.vectors.get(source.source.model) ?? new Map<string, number[]>();
      const missing = chunks.find((chunk) => !vectors.has(chunk.textHash));
      if (missing) throw new RangeError(`no vector staged for chunk ${missing.textHash.slice(0, 12)}`);
      source.chunks = chunks.map((chunk, ordinal) => ({
        id: chunkIdOf(sourceId, ordinal, chunk.textHash),
        sourceId,
        ordinal,
        text: chunk.text,
        textHash: chunk.textHash,
        location: { ...chunk.location, headings: [...chunk.location.headings] },
        terms: new Set(wordsOf(chunk.text).map(termOf)),
      }));
      const used = new Set(chunks.map((chunk) => chunk.textHash));
      source.vectors = new Map([
        [source.source.model, new Map([...vectors].filter(([hash]) => used.has(hash)))],
      ]);
      const { error: _dropped, pendingSubjects, ...rest } = source.source;
      source.source = {
        ...rest,
        authSubjects: pendingSubjects ?? rest.authSubjects,
        ...(note ? { error: note } : {}),
        contentHash,
        status: "ready",
        chunkCount: chunks.length,
        indexedAt: now,
      };
      return copySource(source.source);
    },
    async get(tenantId, sourceId) {
      const source = held(tenantId, sourceId);
      return source && copySource(source.source);
    },
    async list(tenantId, { limit, after, subjects }) {
      const from = after === undefined ? undefined : decodeCursor(after);
      const size = Math.min(limit, KNOWLEDGE_LIMITS.listPage);
      const all = [...(tenants.get(tenantId)?.values() ?? [])]
        .map(({ source }) => source)
        .filter((s) => subjects === undefined || mayRead(s, subjects))
        .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
        .filter(
          (s) => !from || s.createdAt < from.createdAt || (s.createdAt === from.createdAt && s.id < from.id),
        );
      const sources = all.slice(0, size).map(copySource);
      const last = sources[sources.length - 1];
      return all.length > size && last ? { sources, next: encodeCursor(last) } : { sources };
    },
    async remove(tenantId, sourceId) {
      return tenants.get(tenantId)?.delete(sourceId) ?? false;
    },
    async search({ tenantId, subjects }, { text, vector, limit, mode = "hybrid", minSimilarity }) {
      const visible = [...(tenants.get(tenantId)?.values() ?? [])].filter((h) => mayRead(h.source, subjects));
      const byId = new Map<string, { held: Held; chunk: KnowledgeChunk & { terms: Set<string> } }>();
      for (const h of visible) for (const chunk of h.chunks) byId.set(chunk.id, { held: h, chunk });
      const matches = new Map<string, Set<string>>();
      for (const term of new Set(knowledgeQueryWords(text).map(termOf))) {
        matches.set(
          term,
          new Set(
            [...byId.values()].filter(({ chunk }) => chunk.terms.has(term)).map(({ chunk }) => chunk.id),
          ),
        );
      }
      const words = rankByWords(matches, byId.size);
      const vectors = vector
        ? rankByVector(
            [...byId.values()].flatMap(({ held: h, chunk }) => {
              const values =
                h.source.model === vector.model && h.vectors.get(vector.model)?.get(chunk.textHash);
              return values ? [{ id: chunk.id, vector: values }] : [];
            }),
            vector.values,
            minSimilarity ?? KNOWLEDGE_LIMITS.minSimilarity,
          )
        : [];
      return fuse(words, vectors, mode, limit).map(({ id, score }) => {
        const found = byId.get(id) as { held: Held; chunk: KnowledgeChunk };
        return hitOf(found.held, found.chunk, score);
      });
    },
    async readChunk({ tenantId, subjects }, chunkId) {
      for (const h of tenants.get(tenantId)?.values() ?? []) {
        if (!mayRead(h.source, subjects)) continue;
        const chunk = h.chunks.find((c) => c.id === chunkId);
        if (chunk) return hitOf(h, chunk, 0);
      }
      return undefined;
    },
  };
}
