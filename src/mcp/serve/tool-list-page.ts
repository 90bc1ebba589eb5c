/** @module One page of an MCP `tools/list` answer: the rendered tools and an opaque cursor to the next page. */
import type { ListToolsResult, Tool as McpListedTool } from "@modelcontextprotocol/sdk/types.js";
import { type McpTool, renderMcpTools } from "../../catalog/mcp.js";
import type { AnyTool } from "../../registry/registry.js";
import { listPage } from "./list-page.js";

export const DEFAULT_PAGE_SIZE = 100;

/**
 * The page starting at `cursor` (`listPage`). `asTasks`: the server runs calls as tasks, so every tool
 * says a client may ask for one (any call may park for a person, which is what a task is for); said only
 * where the `tasks` capability is declared.
 */
export function toolListPage(
  tools: readonly AnyTool[],
  cursor: string | undefined,
  pageSize: number,
  asTasks = false,
): ListToolsResult {
  const { page: slice, nextCursor } = listPage(tools, cursor, pageSize);
  return {
    tools: renderMcpTools(slice).map((rendered, index) => ({
      ...listedTool(rendered, slice[index]),
      ...(asTasks ? { execution: { taskSupport: "optional" as const } } : {}),
    })),
    ...(nextCursor === undefined ? {} : { nextCursor }),
  };
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
