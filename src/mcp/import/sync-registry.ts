/** @module Keeps a registry in step with an import: tools the upstream adds, changes or drops, as it does. */

import type { AnyTool, ToolRegistry } from "../../registry/registry.js";
import type { Logger } from "../../seam/context.js";
import { silentLogger } from "../../seam/context.js";
import type { McpImport } from "./mcp-server.js";

/**
 * Installs the import's tools that the registry lacks, then follows each re-listing: new tools are
 * installed, changed ones updated (a `tool.update` event each), withheld or vanished ones removed. A name
 * another tool already holds is refused and logged, never shadowed; what was refused is tried again at
 * the next listing, and a refusal never stops the removals. Returns the unsubscribe function.
 */
export function syncRegistry(
  registry: ToolRegistry,
  source: McpImport,
  logger: Logger = silentLogger,
): () => void {
  const installed = new Map<string, AnyTool>();
  const apply = () => {
    const next = new Map(source.tools().map((tool) => [tool.name, tool]));
    for (const name of [...installed.keys()]) {
      if (next.has(name)) continue;
      // The name is ours while we hold it: nothing else can be installed under it meanwhile.
      if (registry.get(name)) registry.remove(name);
      installed.delete(name);
    }
    for (const [name, tool] of next) {
      try {
        if (installed.has(name)) registry.update(tool);
        else registry.install(tool);
        installed.set(name, tool);
      } catch (error) {
        logger.error({ err: error, server: source.name, tool: name }, "an imported tool was not installed");
      }
    }
  };
  // The first tools may be in the registry already (built from the import's list); they are ours to follow.
  for (const tool of source.tools()) {
    if (registry.get(tool.name) === tool) installed.set(tool.name, tool);
  }
  apply();
  return source.onChange(apply);
}
