/** @module One page of an MCP `tools/list` answer: the rendered tools and an opaque cursor to the next page. */
import {
  ErrorCode,
  type ListToolsResult,
  McpError,
  type Tool as McpListedTool,
} from "@modelcontextprotocol/sdk/types.js";
import { type McpTool, renderMcpTools } from "../../catalog/mcp.js";
import type { AnyTool } from "../../registry/registry.js";

export const DEFAULT_PAGE_SIZE = 100;

/**
 * The page starting at `cursor`. The cursor is an offset, base64url-encoded so clients treat it as opaque;
 * a list that changes between pages may shift by a tool, which `list_changed` tells the client to re-read.
 * `asTasks`: the server runs calls as tasks, so every tool says a client may ask for one (any call may
 * park for a person, which is what a task is for); said only where the `tasks` capability is declared.
 */
export function toolListPage(
  tools: readonly AnyTool[],
  cursor: string | undefined,
  pageSize: number,
  asTasks = false,
): ListToolsResult {
  const start = cursor === undefined ? 0 : offsetOf(cursor);
  const slice = tools.slice(start, start + pageSize);
  const page: ListToolsResult = {
    tools: renderMcpTools(slice).map((rendered, index) => ({
      ...listedTool(rendered, slice[index]),
      ...(asTasks ? { execution: { taskSupport: "optional" as const } } : {}),
    })),
  };
  const end = start + slice.length;
  if (end < tools.length) page.nextCursor = Buffer.from(String(end)).toString("base64url");
  return page;
}

function offsetOf(cursor: string): number {
  const offset = Number(Buffer.from(cursor, "base64url").toString());
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new McpError(ErrorCode.InvalidParams, "the cursor is not one this server gave out");
  }
  return offset;
}

/**
 * The input schema as declared, `$schema` included: MCP (2025-11-25) takes JSON Schema 2020-12 and lets a
 * schema name its dialect, which the provider renderings drop. No `outputSchema`, even for a declared
 * output: a listed one promises conforming `structuredContent` on every successful call, which untrusted
 * data, data over the cap and text-only results cannot keep (docs/decisions/0017-mcp-output-schemas.md).
 */
function listedTool(rendered: McpTool, tool: AnyTool | undefined): McpListedTool {
  const dialect = tool?.inputJsonSchema.$schema;
  // defineTool refuses an input schema that is not an object, so this one is.
  return {
    ...rendered,
    inputSchema: (typeof dialect === "string"
      ? { $schema: dialect, ...rendered.inputSchema }
      : rendered.inputSchema) as McpListedTool["inputSchema"],
  };
}
