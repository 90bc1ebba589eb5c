/** @module Reads a response body as text: which media types are text, which are HTML, and their charset. */
import { TextDecoder } from "node:util";
import type { EgressResponse } from "../../egress/egress-client.js";

export interface MediaType {
  /** Lower case, without parameters; empty when the server sent none. */
  type: string;
  charset: string | undefined;
}

const TEXT_APPLICATION_TYPES = new Set([
  "application/json",
  "application/ld+json",
  "application/xml",
  "application/javascript",
  "application/ecmascript",
  "application/x-www-form-urlencoded",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/csv",
]);

export function mediaTypeOf(response: EgressResponse): MediaType {
  const header = response.headers["content-type"] ?? "";
  const [type = "", ...parameters] = header.split(";").map((part) => part.trim());
  const charset = parameters
    .map((parameter) => /^charset\s*=\s*"?([^";]+)"?$/i.exec(parameter)?.[1])
    .find((value) => value !== undefined);
  return { type: type.toLowerCase(), charset };
}

export function isHtml(media: MediaType): boolean {
  return media.type === "text/html" || media.type === "application/xhtml+xml";
}

/** Text by its declared type; a body with no type counts as text unless it looks binary. */
export function isText(media: MediaType, body: Buffer): boolean {
  if (media.type === "") return !looksBinary(body);
  return (
    media.type.startsWith("text/") ||
    TEXT_APPLICATION_TYPES.has(media.type) ||
    media.type.endsWith("+json") ||
    media.type.endsWith("+xml")
  );
}

/** A NUL byte early on is the mark of a binary format; text encodings a page would use have none. */
function looksBinary(body: Buffer): boolean {
  return body.subarray(0, 1024).includes(0);
}

/** Decodes in the declared charset (UTF-8 when none or unknown); a character cut by the byte cap is dropped. */
export function decodeText(response: EgressResponse, media: MediaType): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(media.charset ?? "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  const text = decoder.decode(response.body);
  return response.truncated ? text.replace(/\uFFFD$/, "") : text;
}
