/**
 * @module One page of an MCP list (`tools/list`, `resources/list`): the items from a cursor on, and an opaque
 * cursor to the next page.
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/**
 * The page starting at `cursor`. The cursor is an offset, base64url-encoded so clients treat it as opaque;
 * a list that changes between pages may shift by an item, which `list_changed` tells the client to re-read.
 */
export function listPage<T>(
  items: readonly T[],
  cursor: string | undefined,
  pageSize: number,
): { page: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : offsetOf(cursor);
  const page = items.slice(start, start + pageSize);
  const end = start + page.length;
  return end < items.length ? { page, nextCursor: Buffer.from(String(end)).toString("base64url") } : { page };
}

function offsetOf(cursor: string): number {
  const offset = Number(Buffer.from(cursor, "base64url").toString());
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new McpError(ErrorCode.InvalidParams, "the cursor is not one this server gave out");
  }
  return offset;
}
