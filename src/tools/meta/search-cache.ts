/**
 * @module One search per registry revision, shared by every caller: authorization filters the hits, not
 * the index. Lexical (BM25F) unless the host gives an embedding provider; then hybrid, embedded once per
 * revision, and lexical again while the provider fails, so search degrades rather than breaks.
 */
import { type EmbeddingProvider, EmbeddingProviderError } from "../../catalog/search/embedding-provider.js";
import { toSearchDocument } from "../../catalog/search/from-tool.js";
import { HybridToolSearch } from "../../catalog/search/hybrid-tool-search.js";
import {
  type SearchHit,
  type SearchOptions,
  ToolSearchIndex,
} from "../../catalog/search/tool-search-index.js";
import type { RegistryView } from "../../registry/registry.js";
import { type Logger, silentLogger } from "../../seam/context.js";

export interface ToolSearch {
  /** `logger` hears of a fallback to words alone; the lexical index has none to report. */
  search(query: string, options: SearchOptions, logger?: Logger): SearchHit[] | Promise<SearchHit[]>;
}

const lexical = new WeakMap<RegistryView, { revision: number; index: ToolSearchIndex }>();
const hybrid = new WeakMap<RegistryView, RevisionSearch>();

/** The wait after a failed build before the next; it doubles with each failure in a row, up to the cap. */
export const FIRST_BACKOFF_MS = 5_000;
const MAX_BACKOFF_MS = 5 * 60_000;

export function searchIndexFor(view: RegistryView): ToolSearchIndex {
  const cached = lexical.get(view);
  if (cached && cached.revision === view.revision) return cached.index;
  const revision = view.revision;
  const index = new ToolSearchIndex(view.list().map(toSearchDocument));
  lexical.set(view, { revision, index });
  return index;
}

/** The search for this revision; `now` (epoch milliseconds) times the back-off after the provider fails. */
export function toolSearchFor(
  view: RegistryView,
  embeddings: EmbeddingProvider | undefined,
  logger: Logger,
  now: () => number = Date.now,
): ToolSearch | Promise<ToolSearch> {
  if (!embeddings) return searchIndexFor(view);
  let cached = hybrid.get(view);
  if (!cached || cached.revision !== view.revision) {
    // A new revision starts afresh: its first build is awaited, its back-off starts from the first wait.
    cached = new RevisionSearch(view, embeddings, logger, now);
    hybrid.set(view, cached);
  }
  return cached.ready();
}

/**
 * One revision's hybrid search, embedded once. When the provider fails, on the catalogue or on a query,
 * the words alone rank, and the provider is asked again only once a back-off has passed (a rebuild runs in
 * the background): while it is down, no call waits for it.
 */
class RevisionSearch implements ToolSearch {
  readonly revision: number;
  /** The first build, which callers wait for; undefined once it has settled. */
  #first: Promise<void> | undefined;
  #hybrid: HybridToolSearch | undefined;
  #building = false;
  /** Set after a failure: until then, the words alone rank. */
  #retryAt: number | undefined;
  /** The wait after the next failure; it doubles with each failure in a row, up to the cap. */
  #backoffMs = FIRST_BACKOFF_MS;

  constructor(
    readonly view: RegistryView,
    readonly embeddings: EmbeddingProvider,
    logger: Logger,
    readonly now: () => number,
  ) {
    this.revision = view.revision;
    this.#first = this.#build(logger).finally(() => {
      this.#first = undefined;
    });
  }

  ready(): ToolSearch | Promise<ToolSearch> {
    return this.#first ? this.#first.then(() => this) : this;
  }

  async search(query: string, options: SearchOptions, logger: Logger = silentLogger): Promise<SearchHit[]> {
    const hybrid = this.#hybrid;
    if (this.#retryAt !== undefined && this.now() < this.#retryAt) return this.#words(query, options);
    if (!hybrid) {
      // In the background: this call and those after it rank by words until the build succeeds.
      if (!this.#building) void this.#build(logger);
      return this.#words(query, options);
    }
    try {
      const hits = await hybrid.search(query, options);
      this.#retryAt = undefined;
      this.#backoffMs = FIRST_BACKOFF_MS;
      return hits;
    } catch (error) {
      // A 5xx or a timeout on this query costs the model its meaning match, not its answer.
      if (!(error instanceof EmbeddingProviderError)) throw error;
      this.#failed(logger, error, "embedding the query failed; find_tools searched lexically");
      return hybrid.index.search(query, options);
    }
  }

  #words(query: string, options: SearchOptions): SearchHit[] {
    return (this.#hybrid?.index ?? searchIndexFor(this.view)).search(query, options);
  }

  /** Never rejects: a failure leaves the words ranking until `#retryAt`. */
  async #build(logger: Logger): Promise<void> {
    this.#building = true;
    try {
      const built = new HybridToolSearch(new ToolSearchIndex(), this.embeddings);
      await built.add(this.view.list().map(toSearchDocument));
      this.#hybrid = built;
      this.#retryAt = undefined;
      this.#backoffMs = FIRST_BACKOFF_MS;
    } catch (error) {
      this.#failed(logger, error, "embedding the catalogue failed; find_tools searches lexically");
    } finally {
      this.#building = false;
    }
  }

  #failed(logger: Logger, error: unknown, message: string): void {
    // The state first, so that a logger that throws still leaves the back-off set.
    const waitMs = this.#backoffMs;
    this.#retryAt = this.now() + waitMs;
    this.#backoffMs = Math.min(waitMs * 2, MAX_BACKOFF_MS);
    try {
      logger.warn({ err: error, retryInMs: waitMs }, message);
    } catch {
      // A host's logger that throws must not turn a fallback into a failure.
    }
  }
}
