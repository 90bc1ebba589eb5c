/**
 * @module Ingestion: a document's sections chunked, embedded in bounded batches and committed to the
 * knowledge base in one step. Incremental: a chunk whose text is unchanged keeps its vector. Resumable:
 * each batch's vectors are staged as soon as they come back, so when the embedder fails the source is left
 * `indexing` with the reason, its old chunks still searchable, and the next run embeds only what is missing.
 */
import type { DocumentSection } from "../ports/document-extractor.js";
import type {
  KnowledgeBase,
  KnowledgeEmbedder,
  KnowledgeSource,
  SourceKind,
} from "../ports/knowledge-base.js";
import { IngestError, KNOWLEDGE_LIMITS, SupersededIngestError } from "../ports/knowledge-base.js";

export { IngestError };

import { sha256Hex } from "../ports/knowledge-ranking.js";
import { type ChunkingOptions, chunkSections, DEFAULT_CHUNKING } from "./chunking.js";

/** Texts sent to the embedder in one request: bounded, so a long document is many small requests. */
export const EMBED_BATCH = 32;

export interface IngestDeps {
  knowledge: KnowledgeBase;
  embedder: KnowledgeEmbedder;
  now?: () => number;
  chunking?: ChunkingOptions;
  batchSize?: number;
}

export interface IngestRequest {
  tenantId: string;
  /** Re-index this source; a new one when omitted. */
  sourceId?: string;
  title: string;
  kind: SourceKind;
  origin: string;
  authSubjects: readonly string[];
  sections: readonly DocumentSection[];
  /** What the source's reading left out (a truncated document), kept as the committed source's `error`. */
  note?: string | undefined;
  /** The caller gave up (its request closed): no more batches are embedded, the source stays resumable. */
  signal?: AbortSignal | undefined;
}

export interface IngestResult {
  source: KnowledgeSource;
  chunks: number;
  /** Chunks whose vectors were asked of the embedder this run; the others were kept or staged before. */
  embedded: number;
}

export async function ingest(deps: IngestDeps, request: IngestRequest): Promise<IngestResult> {
  const { knowledge, embedder } = deps;
  const now = deps.now ?? Date.now;
  const batchSize = Math.max(1, Math.min(deps.batchSize ?? EMBED_BATCH, 256));
  const chunks = chunkSections(request.sections, deps.chunking ?? DEFAULT_CHUNKING);
  if (chunks.length > KNOWLEDGE_LIMITS.chunksPerSource) {
    throw new RangeError(
      `the document makes ${chunks.length} chunks, over the ${KNOWLEDGE_LIMITS.chunksPerSource} a source may hold; split it`,
    );
  }
  const contentHash = sha256Hex(chunks.map((chunk) => chunk.textHash).join("\n"));
  const source = await knowledge.begin(request.tenantId, {
    ...(request.sourceId ? { id: request.sourceId } : {}),
    title: request.title,
    kind: request.kind,
    origin: request.origin,
    authSubjects: request.authSubjects,
    model: embedder.model,
    now: now(),
  });
  if (!source) throw new RangeError(`no knowledge source ${request.sourceId}`);
  const known = await knowledge.knownVectors(request.tenantId, source.id, embedder.model);
  const missing = [
    ...new Map(chunks.filter((c) => !known.has(c.textHash)).map((c) => [c.textHash, c])).values(),
  ];
  // Any failure past begin leaves the source `indexing` with the reason, never stuck without one.
  const stop = async (reason: string, error: unknown): Promise<never> => {
    await knowledge.interrupted(request.tenantId, source.id, reason.slice(0, 500));
    throw new IngestError(`${reason}; run the same add again to resume`, source.id, { cause: error });
  };
  for (let at = 0; at < missing.length; at += batchSize) {
    const batch = missing.slice(at, at + batchSize);
    let vectors: number[][] = [];
    try {
      request.signal?.throwIfAborted();
      vectors = await embedder.embed(batch.map((chunk) => chunk.text));
      if (
        vectors.length !== batch.length ||
        vectors.some((v) => v.length === 0 || v.some((x) => !Number.isFinite(x)))
      )
        throw new Error(`the embedder gave ${vectors.length} usable vectors for ${batch.length} texts`);
    } catch (error) {
      await stop(
        `embedding stopped after ${at} of ${missing.length} new chunks: ${(error as Error).message}`,
        error,
      );
    }
    try {
      await knowledge.stageVectors(
        request.tenantId,
        source.id,
        embedder.model,
        batch.map((chunk, n) => ({ textHash: chunk.textHash, vector: vectors[n] as number[] })),
      );
    } catch (error) {
      await stop(`keeping the vectors of new chunks failed: ${(error as Error).message}`, error);
    }
  }
  try {
    const committed = await knowledge.commit(request.tenantId, source.id, {
      contentHash,
      chunks,
      now: now(),
      generation: source.generation,
      note: request.note,
    });
    return { source: committed, chunks: chunks.length, embedded: missing.length };
  } catch (error) {
    // A newer ingestion of the source owns its state now: this one records nothing.
    if (error instanceof SupersededIngestError) throw error;
    return stop(`the commit failed: ${(error as Error).message}`, error);
  }
}
