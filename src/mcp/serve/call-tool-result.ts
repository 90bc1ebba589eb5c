/** @module A seam envelope as the `CallToolResult` of an MCP `tools/call`. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { renderMcpToolResult } from "../../catalog/tool-calls/mcp.js";
import { approvalIdOf, type Envelope } from "../../seam/envelope.js";

/** Where a parked call's approval id goes in `_meta`, for a client that polls without reading the text. */
export const APPROVAL_ID_META = "toolreg/approvalId";

/**
 * The catalogue's MCP rendering (text, `structuredContent` unless untrusted, `isError`), plus the
 * approval id of a parked call as structured data, so a client can follow it up without parsing text.
 */
export function callToolResult(toolCallId: string, name: string, envelope: Envelope): CallToolResult {
  const call = { ok: true as const, id: toolCallId, name, input: {} };
  const result: CallToolResult = { ...renderMcpToolResult([{ call, envelope }]) };
  const approvalId = approvalIdOf(envelope);
  if (approvalId !== undefined) {
    result.structuredContent = { approvalId };
    result._meta = { [APPROVAL_ID_META]: approvalId };
  }
  return result;
}
