/**
 * @module The part of an upstream tool that is pinned, and its hash. Whitespace is normalised in prose
 * (descriptions and titles, at any depth of a schema), so re-wrapping a paragraph is not drift; any
 * other change to a description, a schema or an annotation is.
 */
import type { Tool as UpstreamTool } from "@modelcontextprotocol/sdk/types.js";
import { canonicalJson, sha256 } from "../../declaration/tool-hash.js";
import type { PinnedDefinition } from "./pin-store.js";

const PROSE_KEYS = new Set(["description", "title"]);

export function pinnedDefinitionOf(tool: UpstreamTool): PinnedDefinition {
  return {
    description: tool.description ?? "",
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
}

export function definitionHash(definition: PinnedDefinition): string {
  return sha256(canonicalJson(normaliseProse(definition, undefined)));
}

function normaliseProse(value: unknown, key: string | undefined): unknown {
  if (typeof value === "string")
    return key && PROSE_KEYS.has(key) ? value.replace(/\s+/g, " ").trim() : value;
  if (Array.isArray(value)) return value.map((item) => normaliseProse(item, undefined));
  if (value === null || typeof value !== "object") return value;
  const normalised: Record<string, unknown> = Object.create(null);
  for (const [inner, item] of Object.entries(value)) normalised[inner] = normaliseProse(item, inner);
  return normalised;
}
