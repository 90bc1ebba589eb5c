/**
 * @module MCP `tools/list` items, with behaviour hints derived from each tool's effect and the caution its
 * declaration adds (what it reaches, what it may destroy).
 */

import { hintsOfEffect } from "../declaration/hints.js";
import type { JsonSchemaObject } from "../declaration/json-schema-validator.js";
import type { AnyTool } from "../registry/registry.js";
import { descriptionForModel } from "./model-description.js";
import { parametersOf } from "./parameters.js";

export interface McpToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface McpTool {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  annotations: McpToolAnnotations;
}

/**
 * A tool that runs whichever tool it is asked to (execute_tool) may do whatever the catalogue can: a
 * write, a delete, a request to the web. Its hints are those of the worst tool it could reach, fixed
 * rather than computed from what is served now, because the served set changes (imports, `tool.update`)
 * while a client keeps the list it was given. The call it delegates is still governed as its target.
 */
const DELEGATING: McpToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});

/**
 * Hints from the effect, made more cautious by the declaration's own. All four are always written: MCP's
 * defaults assume the worst (destructive, open world), so an omitted false would read as true.
 */
export function annotationsFor(tool: AnyTool): McpToolAnnotations {
  if (tool.delegatesTo) return DELEGATING;
  const implied = hintsOfEffect(tool.effect);
  const destructive = implied.destructive || tool.hints.destructive === true;
  // A tool that may destroy is not read-only, whatever its effect says (an import its deployment calls a read).
  const readOnly = implied.readOnly && tool.hints.readOnly !== false && !destructive;
  return {
    readOnlyHint: readOnly,
    destructiveHint: destructive,
    // A read repeated changes nothing; a write is made safe to repeat by its idempotency key, not by itself.
    idempotentHint: readOnly && tool.hints.idempotent !== false,
    openWorldHint: implied.openWorld || tool.hints.openWorld === true,
  };
}

/** Renders tools as MCP `tools/list` items, in the order given. */
export function renderMcpTools(tools: readonly AnyTool[]): McpTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: descriptionForModel(tool),
    inputSchema: parametersOf(tool),
    annotations: annotationsFor(tool),
  }));
}
