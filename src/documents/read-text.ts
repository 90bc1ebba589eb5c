/** @module Plain text, read as it is. */
import type { ExtractedDocument, ExtractRequest } from "../ports/document-extractor.js";
import { decodeText } from "../text/decode-text.js";
import { withinChars } from "./markdown-sections.js";

/** Plain text has no headings: a line of `#` in it is text, so it is one section with no path. */
export async function readPlainText(request: ExtractRequest): Promise<ExtractedDocument> {
  const text = decodeText(request.bytes, request.charset).replace(/\r\n?/g, "\n").trim();
  return withinChars(text === "" ? [] : [{ text, headings: [] }], request.maxChars);
}
