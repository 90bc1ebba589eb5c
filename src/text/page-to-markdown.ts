/**
 * @module A web page's main content as markdown: Readability keeps the article and drops what surrounds it
 * (navigation, ads, footers) on a linkedom DOM, which parses without running a script or fetching anything;
 * the project's HTML-to-markdown then writes it. A page Readability finds no article in is converted whole.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { htmlToMarkdown, type Markdown } from "./html-to-markdown.js";

/** `mainContent` is false when no article was found and the whole page was converted instead. */
export interface PageMarkdown extends Markdown {
  mainContent: boolean;
}

/**
 * Converts a page's main content; relative links are made absolute against `baseUrl` (a saved file has
 * none, and keeps a relative link as its text alone). The title is Readability's (the page's own, or its headline).
 */
export function pageToMarkdown(html: string, baseUrl?: string): PageMarkdown {
  const article = new Readability(parseHTML(html).document).parse();
  if (!article?.content) return { ...htmlToMarkdown(html, baseUrl), mainContent: false };
  const title = article.title?.replace(/\s+/g, " ").trim().slice(0, 300);
  const { markdown } = htmlToMarkdown(article.content, baseUrl);
  return { title: title || undefined, markdown, mainContent: true };
}
