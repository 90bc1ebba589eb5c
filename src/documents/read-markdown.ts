/** @module Markdown, read as it is: its headings give the sections their path and the document its title. */
import type { ExtractedDocument, ExtractRequest } from "../ports/document-extractor.js";
import { decodeText } from "../text/decode-text.js";
import { firstHeading, markdownSections, withinChars } from "./markdown-sections.js";

export async function readMarkdown(request: ExtractRequest): Promise<ExtractedDocument> {
  const read = withinChars(markdownSections(decodeText(request.bytes, request.charset)), request.maxChars);
  const title = firstHeading(read.sections);
  return { ...(title ? { title } : {}), ...read };
}
