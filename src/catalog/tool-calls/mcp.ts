/** @module MCP: a `tools/call` request's params in, a `CallToolResult` out. */
import { envelopeText } from "../../seam/envelope.js";
import { isRecord } from "./json-value.js";
import { parseCall } from "./parse-call.js";
import type { ParsedToolCall, ToolCallResult } from "./types.js";

/** A text content block. */
export interface McpTextContent {
  type: "text";
  text: string;
}

/** The result of a `tools/call` request. */
export interface McpCallToolResult {
  content: McpTextContent[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/**
 * A `tools/call` request is exactly one call and needs exactly one result, so params of any shape give
 * one call, refused when unreadable. MCP calls carry no id: the seam gets a generated one.
 */
export function parseMcpToolCalls(params: unknown): ParsedToolCall[] {
  const fields = isRecord(params) ? params : {};
  return [
    parseCall({
      provider: "mcp",
      index: 0,
      id: undefined,
      idRequired: false,
      name: fields.name,
      arguments: fields.arguments,
    }),
  ];
}

/**
 * A text block per result (one, from a `tools/call`), `isError` when any failed. A single result's data
 * becomes `structuredContent` when it is an object, unless its provenance is untrusted: the fence that
 * guards the text does not reach the data, and clients may hand `structuredContent` to the model as is.
 */
export function renderMcpToolResult(results: readonly ToolCallResult[]): McpCallToolResult {
  const result: McpCallToolResult = {
    content: results.map(({ envelope }) => ({ type: "text", text: envelopeText(envelope) })),
  };
  const only = results.length === 1 ? results[0]?.envelope : undefined;
  if (only?.ok && isRecord(only.data) && only.provenance?.trusted !== false) {
    result.structuredContent = only.data;
  }
  if (results.some(({ envelope }) => !envelope.ok)) result.isError = true;
  return result;
}
