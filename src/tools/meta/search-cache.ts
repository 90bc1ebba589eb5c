/**
 * @module One search per registry revision, shared by every caller: authorization filters the hits, not
 * the index. Lexical (BM25F) unless the host gives an embedding provider; then hybrid, embedded once per
 * revision, and lexical again if the provider fails, so search degrades rather than breaks (find_tools does
 * the same for one query the provider fails on).
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
const hybrid = new WeakMap<RegistryView, { revision: number; search: Promise<ToolSearch> }>();

export function searchIndexFor(view: RegistryView): ToolSearchIndex {
  const cached = lexical.get(view);
  if (cached && cached.revision === view.revision) return cached.index;
  const revision = view.revision;
  const index = new ToolSearchIndex(view.list().map(toSearchDocument));
  lexical.set(view, { revision, index });
  return index;
}

export function toolSearchFor(
  view: RegistryView,
  embeddings: EmbeddingProvider | undefined,
  logger: Logger,
): ToolSearch | Promise<ToolSearch> {
  if (!embeddings) return searchIndexFor(view);
  const cached = hybrid.get(view);
  if (cached && cached.revision === view.revision) return cached.search;
  const revision = view.revision;
  const search = (async (): Promise<ToolSearch> => {
    const built = new HybridToolSearch(new ToolSearchIndex(), embeddings);
    await built.add(view.list().map(toSearchDocument));
    return built;
  })().catch((error: unknown) => {
    logger.warn({ err: error }, "embedding the catalogue failed; find_tools searches lexically");
    hybrid.delete(view);
    return searchIndexFor(view);
  });
  hybrid.set(view, { revision, search });
  return search;
}
