/**
 * @module An upstream `tools/call` result as a toolreg output, losing nothing. Everything in it is the
 * upstream's, so it carries an untrusted provenance and the seam fences its text; an `isError` result is a
 * failure whose message is fenced too, since a model reads it. Its `structuredContent` is the call's data
 * (checked by the seam against the tool's output schema, the upstream's). Binary content — images, audio,
 * blob resources — is kept as an untrusted artifact the caller reads at the `artifact://` address the text names;
 * images and audio whose bytes are what their type says also ride along as MCP content for an MCP caller
 * (`toolreg/mcpContent`), within a share of the output cap.
 */
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { ToolOutput } from "../../declaration/define-tool.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import { extensionOfMediaType } from "../../ports/artifact-address.js";
import type { ArtifactStore } from "../../ports/artifact-store.js";
import { encloseUntrusted } from "../../seam/untrusted-fence.js";
import { mcpContent } from "../serve/call-tool-result.js";
import { passableMedia } from "../serve/passable-media.js";
import { isTextType } from "../serve/resources/resource-source.js";

export interface UpstreamResultOptions {
  /** `mcp:<server>/<tool>`: the provenance, and who the fence names. */
  source: string;
  /** The imported tool's name: its artifacts are named after it. */
  toolName: string;
  /** Whether the tool declares an output schema, so a result without structured content breaks it. */
  declaresOutput: boolean;
  tenantId: string;
  /** Where binary content is kept; without one, the text says it was not kept. */
  artifacts: ArtifactStore | undefined;
  /** Base64 characters of images and audio that may ride along as MCP content. */
  inlineBudget: number;
}

export async function toToolOutput(
  result: CallToolResult,
  options: UpstreamResultOptions,
): Promise<ToolOutput<unknown>> {
  const { source } = options;
  if (result.isError) {
    const text = (result.content ?? [])
      .map((block) => (block.type === "text" ? block.text : ""))
      .join("\n\n");
    throw new ToolFailure(
      "upstream_error",
      `${source} reported an error:\n${encloseUntrusted(text.slice(0, 2_000), source)}`,
    );
  }
  const structured = result.structuredContent;
  if (options.declaresOutput && structured === undefined) {
    throw new ToolFailure(
      "output_invalid",
      `${source} declares an output schema but returned no structured content`,
    );
  }
  const lines: string[] = [];
  const passed: ContentBlock[] = [];
  let budget = options.inlineBudget;
  let index = 0;
  for (const block of result.content ?? []) {
    index++;
    const binary = binaryOf(block);
    if (!binary) {
      lines.push(describeBlock(block));
      continue;
    }
    const bytes = Buffer.from(binary.data, "base64");
    const kept = await keep(options, index, binary.mediaType, bytes);
    const media =
      block.type === "image" || block.type === "audio" ? passableMedia(block.mimeType, bytes) : undefined;
    const rides = media !== undefined && binary.data.length <= budget;
    if (rides) {
      budget -= binary.data.length;
      passed.push(block);
    }
    lines.push(
      `[${binary.kind} ${binary.mediaType}, ${bytes.byteLength} bytes: ${kept}${rides ? `; it follows this text as ${block.type} content` : ""}]`,
    );
  }
  // An upstream that gives structured content and no text still says something a model reads.
  const textual = (result.content ?? []).some((block) => block.type === "text");
  if (!textual && structured !== undefined) lines.unshift(JSON.stringify(structured));
  const data = passed.length > 0 ? mcpContent(passed, structured) : structured;
  return {
    content: lines.join("\n\n"),
    ...(data === undefined ? {} : { data }),
    provenance: { source, trusted: false },
  };
}

interface Binary {
  kind: string;
  mediaType: string;
  data: string;
}

function binaryOf(block: ContentBlock): Binary | undefined {
  if (block.type === "image" || block.type === "audio") {
    return { kind: block.type, mediaType: block.mimeType, data: block.data };
  }
  if (block.type === "resource" && "blob" in block.resource && typeof block.resource.blob === "string") {
    return {
      kind: `resource ${block.resource.uri}`,
      mediaType: block.resource.mimeType ?? "application/octet-stream",
      data: block.resource.blob,
    };
  }
  return undefined;
}

/** Where the bytes went, as the text says it: an address to read them at, or why there is none. */
async function keep(
  options: UpstreamResultOptions,
  index: number,
  mediaType: string,
  bytes: Uint8Array,
): Promise<string> {
  if (!options.artifacts) return "not kept, as this deployment has no artifact store";
  try {
    const artifact = await options.artifacts.put({
      tenantId: options.tenantId,
      name: `${options.toolName}-${index}.${extensionOf(mediaType)}`,
      mediaType,
      bytes,
      // The upstream's bytes: artifact resources serve them fenced or as a blob, never as raw text.
      provenance: { source: options.source, trusted: false },
    });
    return `kept as ${artifact.uri} (an MCP client reads it with resources/read)`;
  } catch {
    // The rest of the result is still the caller's; the text says what was lost.
    return "not kept, as the artifact store failed to keep it";
  }
}

/**
 * The artifact's extension, which its type is read back from; a text type none stands for (`text/x-python`)
 * is named `.txt`, so it is served fenced as text rather than as an octet stream a client may decode.
 */
function extensionOf(mediaType: string): string {
  const extension = extensionOfMediaType(mediaType);
  return extension === "bin" && isTextType(mediaType) ? "txt" : extension;
}

/** Text as it is; links and text resources as what they say, since the envelope carries text. */
function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource_link":
      return `[resource ${block.uri}${block.name ? ` (${block.name})` : ""}]`;
    case "resource":
      return "text" in block.resource && typeof block.resource.text === "string"
        ? block.resource.text
        : `[resource ${block.resource.uri}]`;
    default:
      return `[${String((block as { type?: unknown }).type)} content]`;
  }
}
