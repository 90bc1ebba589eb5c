/** @module A seam envelope as the `CallToolResult` of an MCP `tools/call`. */
import {
  type CallToolResult,
  type ContentBlock,
  ContentBlockSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { renderMcpToolResult } from "../../catalog/tool-calls/mcp.js";
import { approvalIdOf, type Envelope } from "../../seam/envelope.js";
import { passableMedia } from "./passable-media.js";

/** Where a parked call's approval id goes in `_meta`, for a client that polls without reading the text. */
export const APPROVAL_ID_META = "toolreg/approvalId";

/**
 * The key in a tool's data under which it hands an MCP client content blocks the envelope's text cannot
 * carry: images, audio, embedded resources. The envelope's `content` stays the text a model reads; the
 * blocks follow it in the result, and the rest of the data is the structured content. A tool uses this
 * with `mcpContent`; any other data is left as it is.
 */
export const MCP_CONTENT_KEY = "toolreg/mcpContent";

/** A tool's data carrying MCP content blocks beside the rest of its data. */
export function mcpContent(
  blocks: readonly ContentBlock[],
  data: Record<string, unknown> = {},
): Record<string, unknown> {
  return { ...data, [MCP_CONTENT_KEY]: blocks };
}

const ContentBlocksSchema = ContentBlockSchema.array();

/**
 * The catalogue's MCP rendering (text, `structuredContent` unless untrusted, `isError`), plus the
 * approval id of a parked call in `_meta`, so a client can follow it up without parsing text, and the
 * content blocks a trusted tool put in its data. `structuredContent` is only ever the tool's own data:
 * a client checks it against an output schema, which an `{ approvalId }` would break.
 */
export function callToolResult(toolCallId: string, name: string, envelope: Envelope): CallToolResult {
  const call = { ok: true as const, id: toolCallId, name, input: {} };
  const result: CallToolResult = { ...renderMcpToolResult([{ call, envelope }]) };
  const approvalId = approvalIdOf(envelope);
  if (approvalId !== undefined) result._meta = { [APPROVAL_ID_META]: approvalId };
  if (envelope.ok && envelope.provenance?.trusted === false) {
    result.content = [...result.content, ...untrustedMedia(envelope.data)];
  }
  const structured = result.structuredContent;
  // renderMcpToolResult leaves out untrusted data, so blocks from an untrusted source never get this far.
  if (structured !== undefined && MCP_CONTENT_KEY in structured) {
    const { [MCP_CONTENT_KEY]: declared, ...rest } = structured;
    const blocks = ContentBlocksSchema.safeParse(declared);
    if (blocks.success) {
      result.content = [
        ...result.content.filter((block) => block.type !== "text" || block.text),
        ...blocks.data,
      ];
      if (Object.keys(rest).length > 0) result.structuredContent = rest;
      else delete result.structuredContent;
    }
  }
  return result;
}

/**
 * The images and audio an untrusted tool's data carries (an imported MCP tool's), and only those whose
 * bytes are what their type says: the fence around the text cannot wrap pixels, so nothing that is text
 * underneath is passed on, nor the blocks' annotations (docs/mcp-import.md, "Images, audio and files").
 */
function untrustedMedia(data: unknown): ContentBlock[] {
  if (typeof data !== "object" || data === null || !(MCP_CONTENT_KEY in data)) return [];
  const blocks = ContentBlocksSchema.safeParse((data as Record<string, unknown>)[MCP_CONTENT_KEY]);
  if (!blocks.success) return [];
  return blocks.data.flatMap((block) =>
    (block.type === "image" || block.type === "audio") &&
    passableMedia(block.mimeType, Buffer.from(block.data, "base64")) !== undefined
      ? [{ type: block.type, data: block.data, mimeType: block.mimeType }]
      : [],
  );
}
