/**
 * @module A fetched body as text and the links an HTML page holds. Links are read with a pattern, not a DOM:
 * only `href` values of `<a>` and `<base>` are wanted, and nothing in the page runs either way.
 */

/** Decodes by the content type's charset, UTF-8 when it names none or one the runtime does not know. */
export function decodeBody(body: Uint8Array, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

export function isHtmlType(type: string): boolean {
  return type === "text/html" || type === "application/xhtml+xml";
}

export function isTextType(type: string): boolean {
  return type.startsWith("text/") || /^application\/(?:json|xml|[\w.+-]+\+(?:json|xml))$/.test(type);
}

const ANCHOR = /<(a|base)\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
/** A page lists at most this many links for the crawler: a link farm is not walked whole. */
export const MAX_LINKS = 2000;

/** The page's absolute http(s) links, resolved against its `<base href>` if any, in page order. */
export function htmlLinks(html: string, pageUrl: string): string[] {
  let base = pageUrl;
  const links: string[] = [];
  for (const match of html.matchAll(ANCHOR)) {
    const raw = (match[2] ?? match[3] ?? match[4] ?? "").replace(
      /&(amp|lt|gt|quot|apos|#38);/gi,
      (entity, name: string) => ENTITIES[name.toLowerCase()] ?? (name === "#38" ? "&" : entity),
    );
    let url: URL;
    try {
      url = new URL(raw.trim(), base);
    } catch {
      continue;
    }
    if (match[1]?.toLowerCase() === "base") {
      if (links.length === 0) base = url.href;
      continue;
    }
    if (url.protocol === "http:" || url.protocol === "https:") links.push(url.href);
    if (links.length >= MAX_LINKS) break;
  }
  return links;
}
