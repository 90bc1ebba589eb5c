/**
 * @module What serves MCP resources: a source lists, templates and reads what it holds for the caller of
 * one request, so every resource answers to the same tenant, principal and visibility as a tool call.
 */
import type {
  BlobResourceContents,
  Resource,
  ResourceTemplate,
  TextResourceContents,
} from "@modelcontextprotocol/sdk/types.js";
import type { ExecutionContext } from "../../../seam/context.js";

/** What a source read: a text or a binary (base64 `blob`) body, per the spec's resource contents. */
export type McpResourceContents = TextResourceContents | BlobResourceContents;

/** How a source tells the server that something changed, for it to tell the client. */
export interface ResourceChanges {
  /** What `list` gives may have changed: the client is sent `notifications/resources/list_changed`. */
  listChanged(): void;
  /** What `uri` holds changed: a client subscribed to it is sent `notifications/resources/updated`. */
  updated(uri: string): void;
}

/**
 * A source of resources. Each request is asked with the context a tool call of that request would run
 * under; a source answers only for that caller, and with undefined where it holds nothing for them, so a
 * resource of another tenant or principal is as absent as one that never existed.
 */
export interface McpResourceSource {
  /** The resources listed for the caller; left out where listing is not cheap or not scoped to them. */
  list?(context: ExecutionContext): readonly Resource[] | Promise<readonly Resource[]>;
  /** URI templates (RFC 6570) of what it reads beyond its list. */
  templates?: readonly ResourceTemplate[];
  /** What `uri` holds for the caller, or undefined when this source has nothing there for them. */
  read(
    uri: string,
    context: ExecutionContext,
  ): McpResourceContents[] | undefined | Promise<McpResourceContents[] | undefined>;
  /** Values of one of its templates' variables that begin with `value`, for `completion/complete`. */
  complete?(
    uriTemplate: string,
    variable: string,
    value: string,
    context: ExecutionContext,
  ): readonly string[] | Promise<readonly string[]>;
  /**
   * Starts telling of changes, for a server that lives long enough to pass them on (a session, stdio);
   * returns what stops it, called when that server closes.
   */
  watch?(changes: ResourceChanges): () => void;
}

/** The spec's "resource not found" (2025-11-25): the answer for a URI that is absent or not the caller's. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A body as resource contents: a string as text, bytes as a base64 blob, or as text when the media type is
 * a text one and the bytes are valid UTF-8 (so a CSV reads as text, a PDF as a blob).
 */
export function resourceContents(
  uri: string,
  mimeType: string,
  body: string | Uint8Array,
): McpResourceContents {
  if (typeof body === "string") return { uri, mimeType, text: body };
  if (isTextType(mimeType)) {
    try {
      return { uri, mimeType, text: new TextDecoder("utf-8", { fatal: true }).decode(body) };
    } catch {
      // Bytes that are not UTF-8 go as they are.
    }
  }
  return { uri, mimeType, blob: Buffer.from(body).toString("base64") };
}

/** Whether a media type is one of text: text/*, JSON, XML and their `+json`, `+xml` kinds (SVG among them). */
export function isTextType(mimeType: string): boolean {
  const type = mimeType.split(";")[0]?.trim().toLowerCase() ?? "";
  return (
    type.startsWith("text/") ||
    type === "application/json" ||
    type === "application/xml" ||
    type.endsWith("+json") ||
    type.endsWith("+xml")
  );
}
