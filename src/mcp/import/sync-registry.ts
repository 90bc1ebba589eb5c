/** @module Keeps a registry in step with an import: tools the upstream adds, changes or drops, as it does. */
import type { AnyTool, ToolRegistry } from "../../registry/registry.js";
import type { McpImport } from "./mcp-server.js";

/**
 * Installs the import's tools that the registry lacks, then follows each re-listing: new tools are
 * installed, changed ones updated (a `tool.update` event each), withheld or vanished ones removed.
 * Returns the unsubscribe function.
 */
export function syncRegistry(registry: ToolRegistry, source: McpImport): () => void {
  let installed = new Map<string, AnyTool>();
  const apply = () => {
    const next = new Map(source.tools().map((tool) => [tool.name, tool]));
    for (const name of installed.keys()) {
      if (!next.has(name) && registry.get(name)) registry.remove(name);
    }
    for (const [name, tool] of next) {
      // A name another tool holds is refused loudly (a duplicate), never shadowed one way or the other.
      if (installed.has(name)) registry.update(tool);
      else registry.install(tool);
    }
    installed = next;
  };
  // The first tools may be in the registry already (built from the import's list); they are ours to follow.
  for (const tool of source.tools()) {
    if (registry.get(tool.name) === tool) installed.set(tool.name, tool);
  }
  apply();
  return source.onChange(apply);
}
