/**
 * @module One search per registry revision, shared by every caller: authorization filters the hits, not
 * the index. Lexical (BM25F) unless the host gives an embedding provider; then hybrid, embedded once per
 * revision, and lexical again if the provider fails, so search degrades rather than breaks (find_tools does
 * the same for one query the provider fails on). After a failure the catalogue is embedded again only once
 * a back-off has passed, and in the background: while the provider is down, no call waits for it.
 */
import type { EmbeddingProvider } from "../../catalog/search/embedding-provider.js";
import { toSearchDocument } from "../../catalog/search/from-tool.js";
import { HybridToolSearch } from "../../catalog/search/hybrid-tool-search.js";
import {
  type SearchHit,
  type SearchOptions,
  ToolSearchIndex,
} from "../../catalog/search/tool-search-index.js";
import type { RegistryView } from "../../registry/registry.js";
import type { Logger } from "../../seam/context.js";

export interface ToolSearch {
  search(query: string, options: SearchOptions): SearchHit[] | Promise<SearchHit[]>;
}

const lexical = new WeakMap<RegistryView, { revision: number; index: ToolSearchIndex }>();
const hybrid = new WeakMap<RegistryView, HybridBuild>();

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

/** The search for this revision; `now` (epoch milliseconds) times the back-off after a failed build. */
export function toolSearchFor(
  view: RegistryView,
  embeddings: EmbeddingProvider | undefined,
  logger: Logger,
  now: () => number = Date.now,
): ToolSearch | Promise<ToolSearch> {
  if (!embeddings) return searchIndexFor(view);
  const cached = hybrid.get(view);
  if (cached && cached.revision === view.revision) return cached.search();
  // A new revision starts afresh: its first build is awaited, its back-off starts from the first wait.
  const built = new HybridBuild(view, embeddings, logger, now);
  hybrid.set(view, built);
  return built.search();
}

/** One revision's hybrid search: embedded once, and after a failure again only once a back-off has passed. */
class HybridBuild {
  readonly revision: number;
  /** The first build (awaited by callers), the hybrid search once built, or lexical after a failure. */
  #search: ToolSearch | Promise<ToolSearch>;
  /** Set after a failed build: when the next may start. */
  #retryAt: number | undefined;
  /** The wait after the next failure. */
  #backoffMs = FIRST_BACKOFF_MS;

  constructor(
    readonly view: RegistryView,
    readonly embeddings: EmbeddingProvider,
    readonly logger: Logger,
    readonly now: () => number,
  ) {
    this.revision = view.revision;
    this.#search = this.#build();
  }

  search(): ToolSearch | Promise<ToolSearch> {
    if (this.#retryAt !== undefined && this.now() >= this.#retryAt) {
      this.#retryAt = undefined;
      // In the background: callers keep the lexical search until it succeeds. Only a host's logger or
      // clock that throws could reject it, and that must not become an unhandled rejection.
      this.#build().catch(() => {});
    }
    return this.#search;
  }

  /** A failure leaves lexical search in place until `#retryAt`, and resolves to it. */
  async #build(): Promise<ToolSearch> {
    try {
      const built = new HybridToolSearch(new ToolSearchIndex(), this.embeddings);
      await built.add(this.view.list().map(toSearchDocument));
      this.#search = built;
    } catch (error) {
      // The state first, so that a logger that throws still leaves the fallback and the back-off set.
      const waitMs = this.#backoffMs;
      this.#search = searchIndexFor(this.view);
      this.#retryAt = this.now() + waitMs;
      this.#backoffMs = Math.min(waitMs * 2, MAX_BACKOFF_MS);
      this.logger.warn(
        { err: error, retryInMs: waitMs },
        "embedding the catalogue failed; find_tools searches lexically",
      );
    }
    return this.#search;
  }
}
