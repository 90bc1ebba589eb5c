/** @module HTML to markdown with turndown, keeping the page title apart; scripts, styles and embeds dropped. */
import TurndownService from "turndown";

const TITLE = /<title[^>]*>([\s\S]*?)<\/title\s*>/i;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);

export interface Markdown {
  title: string | undefined;
  markdown: string;
}

/** Converts a page; relative links are made absolute against `baseUrl` so they can be fetched next. */
export function htmlToMarkdown(html: string, baseUrl: string): Markdown {
  const rawTitle = TITLE.exec(html)?.[1];
  const title = rawTitle === undefined ? undefined : decodeEntities(rawTitle).replace(/\s+/g, " ").trim();
  const markdown = converter(baseUrl)
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title: title ? title.slice(0, 300) : undefined, markdown };
}

/** One converter per page: the link rule needs the page's URL. */
function converter(baseUrl: string): TurndownService {
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

function absolute(href: string | null, baseUrl: string): string | undefined {
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
