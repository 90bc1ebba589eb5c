/**
 * @module HTML to markdown with turndown, keeping the page title apart; scripts, styles and embeds dropped,
 * tables kept as markdown tables. A fetched page and a document read from an attachment go through it alike.
 */
import TurndownService from "turndown";
import { elementText } from "./element-text.js";
import { markdownTables } from "./markdown-tables.js";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);

export interface Markdown {
  title: string | undefined;
  markdown: string;
}

/**
 * Converts a page; relative links are made absolute against `baseUrl` so they can be fetched next. Without
 * one (a file, not a page on the web) a relative link is kept as its text alone.
 */
export function htmlToMarkdown(html: string, baseUrl?: string): Markdown {
  const rawTitle = elementText(html, "title");
  const title = rawTitle === undefined ? undefined : decodeEntities(rawTitle).replace(/\s+/g, " ").trim();
  const markdown = converter(baseUrl)
    .turndown(capWhitespaceRuns(html))
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title: title ? title.slice(0, 300) : undefined, markdown };
}

/**
 * turndown's trailing-whitespace handling is quadratic in a run of whitespace inside `<pre>` or of `&nbsp;`
 * (50,000 spaces took 2 s, 500,000 would take minutes of the event loop): a hostile page or upload is cut to
 * runs of at most `MAX_WHITESPACE_RUN`, which no reader misses.
 */
const MAX_WHITESPACE_RUN = 256;
const SPACE = String.raw`(?:\s|&(?:nbsp|#160|#x0*a0);)`;
// Tried only where a run starts (the look-behind), so a run shorter than the cap is not scanned again from each of its characters.
const WHITESPACE_RUN = new RegExp(`(?<!${SPACE})${SPACE}{${MAX_WHITESPACE_RUN + 1},}`, "gi");
const ONE_SPACE = new RegExp(SPACE, "giy");

function capWhitespaceRuns(html: string): string {
  return html.replace(WHITESPACE_RUN, (run) => {
    ONE_SPACE.lastIndex = 0;
    let kept = "";
    for (let count = 0; count < MAX_WHITESPACE_RUN; count++) kept += ONE_SPACE.exec(run)?.[0] ?? "";
    return kept;
  });
}

/** One converter per page: the link rule needs the page's URL. */
function converter(baseUrl: string | undefined): TurndownService {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
  });
  // What a page runs or embeds is not what it says; the title is returned on its own.
  service.remove([
    "head",
    "title",
    "script",
    "style",
    "noscript",
    "template",
    "iframe",
    "object",
    "embed",
    "canvas",
  ]);
  service.remove((node) => node.nodeName.toLowerCase() === "svg");
  markdownTables(service);
  service.addRule("absoluteLinks", {
    filter: (node) => node.nodeName === "A" && Boolean(node.getAttribute("href")),
    replacement: (content, node) => {
      const target = absolute(
        (node as { getAttribute(name: string): string | null }).getAttribute("href"),
        baseUrl,
      );
      // A javascript: or data: link is dropped to its text: it is nothing a reader could follow.
      return target ? `[${content}](${target})` : content;
    },
  });
  return service;
}

function absolute(href: string | null, baseUrl: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, baseUrl);
    return LINK_SCHEMES.has(url.protocol) ? url.href.replace(/[()]/g, encodeURIComponent) : undefined;
  } catch {
    return undefined;
  }
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith("#")) {
      const hex = name[1] === "x" || name[1] === "X";
      const code = hex ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return ENTITIES[name.toLowerCase()] ?? entity;
  });
}
