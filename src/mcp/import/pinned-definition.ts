/**
 * @module The part of an upstream tool that is pinned, and its hash. Whitespace is normalised in prose
 * (descriptions and titles, at any depth of a schema), so re-wrapping a paragraph is not drift; any
 * other change to a description, a schema or an annotation is.
 */
import type { Tool as UpstreamTool } from "@modelcontextprotocol/sdk/types.js";
import { canonicalJson, sha256 } from "../../declaration/tool-hash.js";
import type { PinnedDefinition } from "../../ports/pin-store.js";
import { mapSchemaProse } from "./schema-prose.js";

export function pinnedDefinitionOf(tool: UpstreamTool): PinnedDefinition {
  return {
    description: tool.description ?? "",
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
}

export function definitionHash(definition: PinnedDefinition): string {
  return sha256(canonicalJson(mapSchemaProse(definition, (text) => text.replace(/\s+/g, " ").trim())));
}
