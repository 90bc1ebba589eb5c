/**
 * @module A saved web page as markdown: its main content, as `pageToMarkdown` finds it (Readability on a
 * linkedom DOM, then the project's HTML-to-markdown), or the whole page when it has no article.
 */
import { ToolFailure } from "../errors/tool-failure.js";
import type { ExtractedDocument, ExtractRequest } from "../ports/document-extractor.js";
import { decodeText } from "../text/decode-text.js";
import { pageToMarkdown } from "../text/page-to-markdown.js";
import { firstHeading, markdownSections, withinChars } from "./markdown-sections.js";

/**
 * The most HTML converted: Readability and turndown work in the host's thread at about a megabyte a second,
 * and a saved article is far smaller; a larger file is refused rather than holding the process for long.
 */
export const HTML_BYTES = 5 * 1024 * 1024;

export async function readHtml(request: ExtractRequest): Promise<ExtractedDocument> {
  if (request.bytes.length > HTML_BYTES) {
    throw new ToolFailure(
      "invalid_input",
      `the HTML file is over the ${HTML_BYTES / 1024 / 1024} MiB read here: save the article alone, or as text`,
      { details: { reason: "too_large", limit: HTML_BYTES } },
    );
  }
  const html = decodeText(request.bytes, request.charset);
  const page = pageToMarkdown(html);
  request.signal?.throwIfAborted();
  const read = withinChars(markdownSections(page.markdown), request.maxChars);
  const title = page.title?.replace(/\s+/g, " ").trim().slice(0, 300) || firstHeading(read.sections);
  return { ...(title ? { title } : {}), ...read };
}
