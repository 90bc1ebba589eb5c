/** @module `toolreg find QUERY`: the served tools that best match a query, ranked by the search find_tools uses. */

import { META_CATEGORY } from "../../catalog/meta/meta-deps.js";
import { toolSearchFor } from "../../catalog/meta/search-cache.js";
import type { EmbeddingProvider } from "../../catalog/search/embedding-provider.js";
import { type AnyTool, ToolRegistry } from "../../registry/registry.js";
import { type Logger, silentLogger } from "../../seam/context.js";
import { type CliIo, UsageError } from "../cli-io.js";
import { ellipsis, formatJson, formatTable } from "../format.js";

export async function findCommand(
  tools: readonly AnyTool[],
  query: string,
  options: { limit?: string; json?: boolean },
  embeddings: EmbeddingProvider | undefined,
  io: CliIo,
): Promise<number> {
  const limit = options.limit === undefined ? 5 : Number(options.limit);
  if (!Number.isInteger(limit) || limit <= 0) throw new UsageError("--limit must be a positive whole number");
  const logger = warningsTo(io);
  const search = await toolSearchFor(new ToolRegistry(tools).view(), embeddings, logger);
  const descriptions = new Map(tools.map((tool) => [tool.name, tool.description]));
  // As find_tools: the meta-tools are how a model searches, never what it finds.
  const catalogued = new Set(
    tools.filter((tool) => tool.category !== META_CATEGORY).map((tool) => tool.name),
  );
  const hits = await search.search(
    query,
    { limit, filter: (document) => catalogued.has(document.name) },
    logger,
  );
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

/** Warnings on stderr: whoever asked for `--embeddings` hears when the words alone ranked, and why. */
function warningsTo(io: CliIo): Logger {
  return {
    ...silentLogger,
    warn: (fields, message) => {
      const cause = (fields as { err?: unknown }).err;
      io.stderr(`warning: ${message ?? ""}${cause instanceof Error ? ` (${cause.message})` : ""}\n`);
    },
  };
}
