/**
 * @module A small web site served locally: pages by path (HTML, text, binary), redirects, robots.txt and
 * slow pages, so the direct provider and the crawler meet real HTTP.
 */
import { type LocalServer, type Reply, startLocalServer } from "./local-server.js";

export type SitePages = Record<string, Reply | string>;

export interface Site extends LocalServer {
  /** Paths requested, in order (robots.txt included). */
  paths(): string[];
}

/** Serves `pages` (a string is an HTML page); any other path is a 404. */
export async function startSite(pages: SitePages): Promise<Site> {
  const server = await startLocalServer((request) => {
    const page = pages[request.target] ?? pages[request.path];
    if (page === undefined)
      return { status: 404, headers: { "content-type": "text/plain" }, body: "not found" };
    if (typeof page === "string")
      return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: page };
    return page;
  });
  return Object.assign(server, { paths: () => server.requests.map((request) => request.target) });
}

/** An HTML page whose article is `article`, wrapped in navigation and a footer a reader would not want. */
export function articlePage(title: string, article: string, links: readonly string[] = []): string {
  const nav = links.map((href) => `<a href="${href}">${href}</a>`).join(" ");
  const paragraphs = Array.from(
    { length: 4 },
    (_, index) =>
      `<p>${article} This paragraph ${index + 1} is long enough for Readability to count it as the body of an article, with commas, clauses, and sentences.</p>`,
  ).join("\n");
  return `<!doctype html><html><head><title>${title}</title></head><body>
<nav class="menu">SITE MENU ${nav}</nav>
<article><h1>${title}</h1>${paragraphs}</article>
<footer>COPYRIGHT FOOTER</footer></body></html>`;
}

/** A redirect to `location`. */
export function redirect(location: string, status = 302): Reply {
  return { status, headers: { location }, body: "" };
}

/** A robots.txt answer. */
export function robotsTxt(text: string, status = 200): Reply {
  return { status, headers: { "content-type": "text/plain" }, body: text };
}
