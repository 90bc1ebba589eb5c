/**
 * @module A web page's main content as markdown: Readability keeps the article and drops what surrounds it
 * (navigation, ads, footers) on a linkedom DOM, which parses without running a script or fetching anything;
 * the project's HTML-to-markdown then writes it. A page Readability finds no article in is converted whole.
 * The page's links are read from the same DOM before Readability prunes it, so a page is parsed once.
 */
import { createRequire } from "node:module";
import { Readability } from "@mozilla/readability";
import type * as Linkedom from "linkedom";
import { htmlToMarkdown, type Markdown } from "./html-to-markdown.js";

// linkedom and its parser are some 200 modules, loaded the first time a page is read rather than by every
// command at start (a sixth of `toolreg list`'s time). Its CommonJS build: a synchronous function cannot await.
const require = createRequire(import.meta.url);
let linkedom: typeof Linkedom | undefined;
function parseHTML(html: string): ReturnType<typeof Linkedom.parseHTML> {
  linkedom ??= require("linkedom") as typeof Linkedom;
  return linkedom.parseHTML(html);
}

/** A page as markdown, with the absolute http(s) links it holds in page order. */
export interface PageMarkdown extends Markdown {
  links: string[];
}

export interface PageMarkdownOptions {
  /** The most links listed: a link farm is not listed whole. 0 (the default) lists none. */
  maxLinks?: number;
}

/**
 * Converts a page's main content; relative links are made absolute against `baseUrl` (a saved file has
 * none, and keeps a relative link as its text alone). The title is Readability's (the page's own, or its headline).
 */
export function pageToMarkdown(
  html: string,
  baseUrl?: string,
  options: PageMarkdownOptions = {},
): PageMarkdown {
  const { document } = parseHTML(html);
  const links = pageLinks(document, baseUrl, options.maxLinks ?? 0);
  const article = new Readability(document).parse();
  if (!article?.content) return { ...htmlToMarkdown(html, baseUrl), links };
  const title = article.title?.replace(/\s+/g, " ").trim().slice(0, 300);
  const { markdown } = htmlToMarkdown(article.content, baseUrl);
  return { title: title || undefined, markdown, links };
}

interface LinkDocument {
  querySelector(selector: string): { getAttribute(name: string): string | null } | null;
  querySelectorAll(selector: string): Iterable<{ getAttribute(name: string): string | null }>;
}

/** `<a href>` links resolved against the page's first `<base href>` (itself against `baseUrl`); http(s) only. */
function pageLinks(document: LinkDocument, baseUrl: string | undefined, maxLinks: number): string[] {
  if (maxLinks <= 0) return [];
  const resolve = (raw: string, base: string | undefined): URL | undefined => {
    try {
      return new URL(raw.trim(), base);
    } catch {
      return undefined;
    }
  };
  const declared = document.querySelector("base[href]")?.getAttribute("href");
  const base = (declared == null ? undefined : resolve(declared, baseUrl)?.href) ?? baseUrl;
  const links: string[] = [];
  for (const anchor of document.querySelectorAll("a[href]")) {
    const url = resolve(anchor.getAttribute("href") ?? "", base);
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) continue;
    links.push(url.href);
    if (links.length >= maxLinks) break;
  }
  return links;
}
