/**
 * @module The MCP resources a catalogue module (`--registry PATH`) serves of its own: its `resources` export,
 * one source or a list (made with `defineMcpResources`), served by `toolreg mcp` and `/mcp` beside toolreg's.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { McpResourceSource } from "../mcp/serve/resources/resource-source.js";

/** The module's `resources`, none when it exports none; throws when the export is not sources. */
export async function loadCatalogueResources(path: string): Promise<McpResourceSource[]> {
  // The same module the catalogue was loaded from: imported once, so its resources share its state.
  const loaded = (await import(pathToFileURL(resolve(path)).href)) as { resources?: unknown };
  if (loaded.resources === undefined) return [];
  const sources = [loaded.resources].flat();
  if (!sources.every(isSource)) {
    throw new Error(
      "its resources export is not MCP resource sources: export const resources = defineMcpResources({ … })",
    );
  }
  return sources;
}

function isSource(value: unknown): value is McpResourceSource {
  return (
    typeof value === "object" && value !== null && typeof (value as McpResourceSource).read === "function"
  );
}
