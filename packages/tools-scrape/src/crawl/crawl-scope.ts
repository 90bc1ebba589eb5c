/**
 * @module Which links a crawl follows: http(s) only, fragments dropped, on the start URL's host (and under
 * a path prefix when one is given), each URL once.
 */

/** The URL without fragment, or undefined when it is not http(s) or not a URL. */
export function normaliseLink(link: string, base?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(link, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username || url.password) return undefined;
  url.hash = "";
  return url.href;
}

export interface CrawlScope {
  host: string;
  pathPrefix: string | undefined;
}

export function inScope(url: string, scope: CrawlScope): boolean {
  const parsed = new URL(url);
  if (parsed.host !== scope.host) return false;
  return scope.pathPrefix === undefined || parsed.pathname.startsWith(scope.pathPrefix);
}
