/** @module One search index per registry revision, shared by every caller: authorization filters the hits, not the index. */
import { toSearchDocument } from "../../catalog/search/from-tool.js";
import { ToolSearchIndex } from "../../catalog/search/tool-search-index.js";
import type { RegistryView } from "../../registry/registry.js";

const indexes = new WeakMap<RegistryView, { revision: number; index: ToolSearchIndex }>();

export function searchIndexFor(view: RegistryView): ToolSearchIndex {
  const cached = indexes.get(view);
  if (cached && cached.revision === view.revision) return cached.index;
  const revision = view.revision;
  const index = new ToolSearchIndex(view.list().map(toSearchDocument));
  indexes.set(view, { revision, index });
  return index;
}
