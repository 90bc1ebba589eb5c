/** @module `toolreg find QUERY`: the served tools that best match a query, as find_tools would rank them. */
import { toSearchDocument } from "../../catalog/search/from-tool.js";
import { ToolSearchIndex } from "../../catalog/search/tool-search-index.js";
import type { AnyTool } from "../../registry/registry.js";
import { type CliIo, UsageError } from "../cli-io.js";
import { ellipsis, formatJson, formatTable } from "../format.js";

export function findCommand(
  tools: readonly AnyTool[],
  query: string,
  options: { limit?: string; json?: boolean },
  io: CliIo,
): number {
  const limit = options.limit === undefined ? 5 : Number(options.limit);
  if (!Number.isInteger(limit) || limit <= 0) throw new UsageError("--limit must be a positive whole number");
  const index = new ToolSearchIndex(tools.map(toSearchDocument));
  const descriptions = new Map(tools.map((tool) => [tool.name, tool.description]));
  const hits = index.search(query, { limit });
  if (options.json) {
    io.stdout(formatJson(hits));
    return 0;
  }
  io.stdout(
    formatTable(
      ["NAME", "SCORE", "DESCRIPTION"],
      hits.map((hit) => [hit.name, hit.score.toFixed(2), ellipsis(descriptions.get(hit.name) ?? "", 70)]),
    ),
  );
  return 0;
}
