/**
 * @module An upstream `tools/call` result as a toolreg output. Everything in it is the upstream's text,
 * so it carries an untrusted provenance and the seam fences it; an `isError` result is a failure whose
 * message is fenced too, since a model reads it.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolOutput } from "../../declaration/define-tool.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import { encloseUntrusted } from "../../seam/untrusted-fence.js";

export function toToolOutput(result: CallToolResult, source: string): ToolOutput<unknown> {
  const text = (result.content ?? []).map(describeBlock).join("\n\n");
  if (result.isError) {
    throw new ToolFailure(
      "upstream_error",
      `${source} reported an error:\n${encloseUntrusted(text.slice(0, 2_000), source)}`,
    );
  }
  return {
    content: text,
    ...(result.structuredContent === undefined ? {} : { data: result.structuredContent }),
    provenance: { source, trusted: false },
  };
}

type Block = NonNullable<CallToolResult["content"]>[number];

/** Text as it is; anything else as a line saying what it was, since the envelope carries text. */
function describeBlock(block: Block): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case "resource_link":
      return `[resource ${block.uri}${block.name ? ` (${block.name})` : ""}]`;
    case "resource":
      return "text" in block.resource && typeof block.resource.text === "string"
        ? block.resource.text
        : `[resource ${block.resource.uri}, ${block.resource.mimeType ?? "binary"}]`;
    default:
      return `[${String((block as { type?: unknown }).type)} content]`;
  }
}
