/**
 * @module One search per registry revision, shared by every caller: authorization filters the hits, not
 * the index. Lexical (BM25F) unless the host gives an embedding provider; then hybrid, embedded once per
 * revision, and lexical again while the provider fails, so search degrades rather than breaks.
 */

import type { RegistryView } from "../../registry/registry.js";
import { type Logger, silentLogger } from "../../seam/context.js";
import { type EmbeddingProvider, EmbeddingProviderError } from "../search/embedding-provider.js";
import { toSearchDocument } from "../search/from-tool.js";
import { HybridToolSearch } from "../search/hybrid-tool-search.js";
import { type SearchHit, type SearchOptions, ToolSearchIndex } from "../search/tool-search-index.js";

export interface ToolSearch {
  /** `logger` hears of a fallback to words alone; the lexical index has none to report. */
  search(query: string, options: SearchOptions, logger?: Logger): SearchHit[] | Promise<SearchHit[]>;
}

const lexical = new WeakMap<RegistryView, { revision: number; index: ToolSearchIndex }>();
const revisionSearches = new WeakMap<RegistryView, { backoff: Backoff; search: RevisionSearch }>();

/** The first wait after a failure before the provider is asked again; each failure in a row doubles it. */
export const FIRST_BACKOFF_MS = 5_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * When the embedding provider may be asked again. One per view, across its revisions: a provider that is
 * down is down for the next revision too. Failures while a wait is in force (calls that were already in
 * flight) are the same outage, not more failures in a row; only an answer to a request made after the
 * last failure ends one, and a failure of a request made before the last answer starts none.
 */
class Backoff {
  #retryAt: number | undefined;
  #waitMs = FIRST_BACKOFF_MS;
  /** When the last failure was counted; undefined while the provider answers. */
  #failedAt: number | undefined;
  /** When the request was made that the provider last answered. */
  #answeredAt: number | undefined;

  constructor(readonly now: () => number) {}

  get waiting(): boolean {
    return this.#retryAt !== undefined && this.now() < this.#retryAt;
  }

  /** Whether the provider's last answer was a failure, waited out or not. */
  get failing(): boolean {
    return this.#failedAt !== undefined;
  }

  /**
   * Starts a wait unless one is in force, or the request was made before the provider last answered;
   * returns how long the wait is, or undefined when none was started.
   */
  failed(askedAt: number): number | undefined {
    if (this.waiting || (this.#answeredAt !== undefined && askedAt < this.#answeredAt)) return undefined;
    const waitMs = this.#waitMs;
    this.#failedAt = this.now();
    this.#retryAt = this.#failedAt + waitMs;
    this.#waitMs = Math.min(waitMs * 2, MAX_BACKOFF_MS);
    return waitMs;
  }

  /** `askedAt`: when the request that succeeded was made. */
  succeeded(askedAt: number): void {
    if (this.#failedAt !== undefined && askedAt < this.#failedAt) return;
    this.#answeredAt = askedAt;
    this.#failedAt = undefined;
    this.#retryAt = undefined;
    this.#waitMs = FIRST_BACKOFF_MS;
  }
}

/**
 * Whether the provider refused this request for what it held (HTTP 400, 413 or 422 from an HTTP
 * provider), which says nothing about the next one.
 */
function refusedThisRequest(error: EmbeddingProviderError): boolean {
  const status = (error.cause as { status?: unknown } | undefined)?.status;
  return status === 400 || status === 413 || status === 422;
}

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
  let cached = revisionSearches.get(view);
  if (!cached || cached.search.revision !== view.revision) {
    const backoff = cached?.backoff ?? new Backoff(now);
    cached = { backoff, search: new RevisionSearch(view, embeddings, backoff, logger) };
    revisionSearches.set(view, cached);
  }
  return cached.search.ready();
}

/**
 * One revision's hybrid search, embedded once. When the provider fails, on the catalogue or on a query,
 * the words alone rank, and the provider is asked again only once the back-off has passed (a rebuild runs
 * in the background): while it is down, no call waits for it. A revision's first build is waited for
 * only while the provider is not failing.
 */
class RevisionSearch implements ToolSearch {
  readonly revision: number;
  /** The first build, which callers wait for; undefined once it has settled. */
  #first: Promise<void> | undefined;
  #hybrid: HybridToolSearch | undefined;
  #building = false;

  constructor(
    readonly view: RegistryView,
    readonly embeddings: EmbeddingProvider,
    readonly backoff: Backoff,
    logger: Logger,
  ) {
    this.revision = view.revision;
    if (!backoff.failing) {
      this.#first = this.#build(logger).finally(() => {
        this.#first = undefined;
      });
    }
  }

  ready(): ToolSearch | Promise<ToolSearch> {
    return this.#first ? this.#first.then(() => this) : this;
  }

  async search(query: string, options: SearchOptions, logger: Logger = silentLogger): Promise<SearchHit[]> {
    const hybrid = this.#hybrid;
    if (this.backoff.waiting) return this.#words(query, options);
    if (!hybrid) {
      // In the background: this call and those after it rank by words until the build succeeds.
      if (!this.#building) void this.#build(logger);
      return this.#words(query, options);
    }
    const askedAt = this.backoff.now();
    try {
      const hits = await hybrid.search(query, options);
      this.backoff.succeeded(askedAt);
      return hits;
    } catch (error) {
      // A 5xx or a timeout on this query costs the model its meaning match, not its answer.
      if (!(error instanceof EmbeddingProviderError)) throw error;
      const message = "embedding the query failed; find_tools searched lexically";
      // A query refused for itself leaves the provider in use for every other query.
      if (refusedThisRequest(error)) this.#warn(logger, error, message, undefined);
      else this.#warn(logger, error, message, this.backoff.failed(askedAt));
      return hybrid.index.search(query, options);
    }
  }

  #words(query: string, options: SearchOptions): SearchHit[] {
    return (this.#hybrid?.index ?? searchIndexFor(this.view)).search(query, options);
  }

  /** Never rejects: a failure leaves the words ranking until the back-off has passed. */
  async #build(logger: Logger): Promise<void> {
    this.#building = true;
    const askedAt = this.backoff.now();
    try {
      const built = new HybridToolSearch(new ToolSearchIndex(), this.embeddings);
      await built.add(this.view.list().map(toSearchDocument));
      this.#hybrid = built;
      // A revision that has been replaced says nothing the current one should act on.
      if (this.view.revision === this.revision) this.backoff.succeeded(askedAt);
    } catch (error) {
      const message = "embedding the catalogue failed; find_tools searches lexically";
      this.#warn(logger, error, message, this.backoff.failed(askedAt));
    } finally {
      this.#building = false;
    }
  }

  /** Called after the back-off is set, so that a logger that throws still leaves it in place. */
  #warn(logger: Logger, error: unknown, message: string, retryInMs: number | undefined): void {
    try {
      logger.warn({ err: error, ...(retryInMs === undefined ? {} : { retryInMs }) }, message);
    } catch {
      // A host's logger that throws must not turn a fallback into a failure.
    }
  }
}
