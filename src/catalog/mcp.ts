/** @module MCP `tools/list` items, with the behaviour hints derived from each tool's effect. */

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
 * Hints from the effect. All four are always written: MCP's defaults assume the worst
 * (destructive, open world), so an omitted false would read as true.
 */
export function annotationsFor(tool: AnyTool): McpToolAnnotations {
  return {
    readOnlyHint: tool.effect === "read",
    destructiveHint: tool.effect === "destructive",
    // A read repeated changes nothing; a write is made safe to repeat by its idempotency key, not by itself.
    idempotentHint: tool.effect === "read",
    openWorldHint: tool.effect === "external-write",
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
