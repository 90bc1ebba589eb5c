/**
 * @module A fetched body as text, decoded as the host's readers decode (a byte order mark, then the content
 * type's charset, then UTF-8), and what kind of body a content type names.
 */
import { charsetOf, decodeText } from "toolreg/toolkit";

/** A page lists at most this many links for the crawler: a link farm is not walked whole. */
export const MAX_LINKS = 2000;

export function decodeBody(body: Uint8Array, contentType: string | undefined): string {
  return decodeText(body, charsetOf(contentType ?? ""));
}

export function isHtmlType(type: string): boolean {
  return type === "text/html" || type === "application/xhtml+xml";
}

export function isTextType(type: string): boolean {
  return type.startsWith("text/") || /^application\/(?:json|xml|[\w.+-]+\+(?:json|xml))$/.test(type);
}
