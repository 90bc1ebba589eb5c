/** @module Markdown, read as it is: its headings give the sections their path and the document its title. */
import type { ExtractedDocument, ExtractRequest } from "../ports/document-extractor.js";
import { firstHeading, markdownSections, withinChars } from "./markdown-sections.js";
import { decodeText } from "./sniff-bytes.js";

export async function readMarkdown(request: ExtractRequest): Promise<ExtractedDocument> {
  const read = withinChars(markdownSections(decodeText(request.bytes)), request.maxChars);
  const title = firstHeading(read.sections);
  return { ...(title ? { title } : {}), ...read };
}
