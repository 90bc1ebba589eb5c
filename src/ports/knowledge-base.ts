/**
 * @module The port for a tenant's knowledge base: sources (a text, a URL, an attachment) cut into chunks, each
 * with its place in the source and an embedding, searched by words and by vector together. Every read takes
 * the reader — tenant and the subjects the host says the caller holds — and every adapter filters by both in
 * the store itself, so a source is found and read only by a caller holding one of its `authSubjects`.
 */

/** Who reads: the tenant and the subjects (e.g. `principal:ada`, a scope) the host granted the caller. */
export interface KnowledgeReader {
  tenantId: string;
  subjects: readonly string[];
}

export const SOURCE_KINDS = ["attachment", "url", "text"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** `indexing` while an ingestion runs or after one was interrupted (the next run resumes); `ready` once committed. */
export type SourceStatus = "indexing" | "ready";

export interface KnowledgeSource {
  /** `ks_` and a random suffix. */
  id: string;
  title: string;
  kind: SourceKind;
  /** The URL, the attachment id, or `text` for a pasted text. */
  origin: string;
  /** The subjects that may find and read it; at least one. */
  authSubjects: string[];
  /**
   * The subjects a re-index in progress gives it at its commit; until then a reader must hold one of these
   * and one of `authSubjects`, so the chunks being replaced never reach a reader the old ones did not.
   */
  pendingSubjects?: string[];
  /** Counts the ingestions begun; a commit names the one it finishes, so an older one cannot land over a newer. */
  generation: number;
  /** The embedding model its vectors come from; a query embedded by another model compares by words only. */
  model: string;
  /** The sha256 (hex) of the text last committed; empty before the first commit. */
  contentHash: string;
  status: SourceStatus;
  /** Why the last ingestion stopped before its commit, or what it left out of a truncated document. */
  error?: string;
  chunkCount: number;
  /** Epoch milliseconds of the last commit; absent before the first. */
  indexedAt?: number;
  createdAt: number;
}

/** Where a chunk sits in its source. */
export interface ChunkLocation {
  /** From 1, for a paged source (PDF). */
  page?: number;
  /** The headings it falls under, outermost first. */
  headings: string[];
}

export interface NewChunk {
  text: string;
  /** The sha256 (hex) of `text`: an unchanged chunk keeps the vector stored under it. */
  textHash: string;
  location: ChunkLocation;
}

export interface KnowledgeChunk extends NewChunk {
  /** Stable while the source's text at this place is unchanged: `kc_` and a hash of source, ordinal and text. */
  id: string;
  sourceId: string;
  ordinal: number;
}

export interface NewSource {
  /** Re-indexes this source when given (its chunks stay searchable until the commit); a new one otherwise. */
  id?: string;
  title: string;
  kind: SourceKind;
  origin: string;
  authSubjects: readonly string[];
  model: string;
  /** Epoch milliseconds; the store keeps no clock of its own. */
  now: number;
}

/**
 * Turns texts into vectors, named by `model` so vectors of two models are never compared; an
 * EmbeddingProvider with a name is one.
 */
export interface KnowledgeEmbedder {
  readonly model: string;
  /**
   * The cosine similarity under which a chunk found by this model alone is noise, not a hit (models spread
   * their similarities differently); `KNOWLEDGE_LIMITS.minSimilarity` when omitted.
   */
  readonly minSimilarity?: number;
  embed(texts: readonly string[]): number[][] | Promise<number[][]>;
}

export type SearchMode = "hybrid" | "words" | "vectors";

export interface KnowledgeQuery {
  text: string;
  /** The query's embedding and the model it came from; without it the search is by words only. */
  vector?: { model: string; values: readonly number[] };
  limit: number;
  /** `hybrid` unless a measurement asks for one ranking alone. */
  mode?: SearchMode;
  /** A chunk found by vector alone below this cosine similarity is dropped; `KNOWLEDGE_LIMITS.minSimilarity`. */
  minSimilarity?: number;
}

export interface KnowledgeHit {
  chunk: KnowledgeChunk;
  source: Pick<KnowledgeSource, "id" | "title" | "kind" | "origin">;
  /** The reciprocal-rank-fusion score; only the order means something. */
  score: number;
}

export interface KnowledgeBase {
  /**
   * Creates a source (RangeError past `sourcesPerTenant`), or marks an existing one `indexing` with its new
   * title and origin, its new subjects pending and its generation advanced; undefined for an unknown id.
   */
  begin(tenantId: string, source: NewSource): Promise<KnowledgeSource | undefined>;
  /** The vectors already held for a source under `model`, by text hash: committed chunks' and staged ones. */
  knownVectors(tenantId: string, sourceId: string, model: string): Promise<Map<string, number[]>>;
  /** Keeps vectors embedded for the source's next commit, so an interrupted ingestion need not embed them again. */
  stageVectors(
    tenantId: string,
    sourceId: string,
    model: string,
    vectors: readonly { textHash: string; vector: readonly number[] }[],
  ): Promise<void>;
  /** Records why an ingestion stopped; the source stays `indexing` and its committed chunks searchable. */
  interrupted(tenantId: string, sourceId: string, reason: string): Promise<void>;
  /**
   * Replaces the source's chunks with `chunks` and its subjects with the pending ones in one step and marks
   * it `ready`; every chunk's vector must be held (known or staged) under the source's model, else nothing
   * changes and it throws. `generation` is the one `begin` returned: a later begin makes it stale and the
   * commit throws SupersededIngestError. `note` is kept as the source's `error` (a truncated document).
   */
  commit(
    tenantId: string,
    sourceId: string,
    commit: {
      contentHash: string;
      chunks: readonly NewChunk[];
      now: number;
      generation: number;
      note?: string | undefined;
    },
  ): Promise<KnowledgeSource>;
  get(tenantId: string, sourceId: string): Promise<KnowledgeSource | undefined>;
  /**
   * The tenant's sources, newest first: every one for an operator (no `subjects`), else only those a reader
   * holding `subjects` may read, filtered before the page is cut.
   */
  list(
    tenantId: string,
    page: { limit: number; after?: string | undefined; subjects?: readonly string[] | undefined },
  ): Promise<{
    sources: KnowledgeSource[];
    next?: string;
  }>;
  /** Removes a source with its chunks and vectors; false when the tenant has none with that id. */
  remove(tenantId: string, sourceId: string): Promise<boolean>;
  /**
   * The reader's best chunks for the query: the chunks holding its words and the chunks nearest its vector
   * each ranked, then fused by reciprocal rank. Empty when nothing matches: no padding with weak hits.
   */
  search(reader: KnowledgeReader, query: KnowledgeQuery): Promise<KnowledgeHit[]>;
  /** One chunk with its source, only while the reader still holds one of the source's subjects. */
  readChunk(reader: KnowledgeReader, chunkId: string): Promise<KnowledgeHit | undefined>;
}

export const KNOWLEDGE_LIMITS = {
  /** Distinct words of a query that are looked for. */
  queryWords: 32,
  searchResults: 20,
  /** How many candidates each ranking gives to the fusion. */
  candidates: 100,
  /** Cosine similarity under which a vector-only candidate is not a hit. */
  minSimilarity: 0.3,
  /** Reciprocal rank fusion's constant (Cormack et al.): 60 damps the weight of the very first ranks. */
  fusionK: 60,
  chunksPerSource: 5_000,
  /** Every search weighs all of a reader's visible vectors: the tenant's sources are bounded. */
  sourcesPerTenant: 1_000,
  authSubjects: 20,
  subjectChars: 200,
  titleChars: 300,
  listPage: 100,
  /** The most characters of a pasted text. */
  textChars: 1_000_000,
} as const;

/** What a person adds to the knowledge base: a text, a page, a file's bytes, or one of their attachments. */
export type KnowledgeAddition = (
  | { from: "text"; text: string }
  | { from: "url"; url: string }
  | { from: "file"; name: string; mediaType: string; bytes: Uint8Array }
  | { from: "attachment"; attachmentId: string; principalId: string; runId: string }
) & {
  /** The document's own title, else the file name or URL, when omitted. */
  title?: string | undefined;
  /**
   * Who may read it. Omitted: a re-index keeps the source's subjects (the pending ones of an unfinished
   * re-index), a new source is readable by the whole tenant.
   */
  authSubjects?: readonly string[] | undefined;
  /** Re-index this source instead of adding one. */
  sourceId?: string | undefined;
};

/**
 * Reads, chunks, embeds and commits an addition: what the API and `toolreg kb add` call. Throws RangeError
 * for an addition that cannot be read (a type nothing reads, an HTTP error, an unknown source); an
 * embedder failure leaves the source resumable and throws with how to resume.
 */
export interface KnowledgeIntake {
  /** `signal`: the caller went away; reading and embedding stop, and the source stays resumable. */
  add(
    tenantId: string,
    addition: KnowledgeAddition,
    signal?: AbortSignal,
  ): Promise<{ source: KnowledgeSource; embedded: number }>;
}

/** A commit of an ingestion a later `begin` of the same source superseded: nothing of it was kept. */
export class SupersededIngestError extends Error {
  constructor(readonly sourceId: string) {
    super(
      `source ${sourceId} was re-indexed again while this ingestion ran; the newer one stands, nothing of this one was kept`,
    );
    this.name = "SupersededIngestError";
  }
}

/** Why an ingestion stopped before its commit; the source keeps the reason and the next add of it resumes. */
export class IngestError extends Error {
  constructor(
    message: string,
    readonly sourceId: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "IngestError";
  }
}
