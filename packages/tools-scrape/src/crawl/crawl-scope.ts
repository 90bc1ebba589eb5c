/**
 * @module Which links a crawl follows: http(s) only, fragments dropped, on the start URL's host (and under
 * a path prefix when one is given), each URL once, and not to a file that is plainly no page (an image, an
 * archive, a PDF): fetching it would spend the crawl's bytes to be refused.
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

const NOT_A_PAGE =
  /\.(?:pdf|png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4[av]|mov|avi|webm|ogg|wav|flac|zip|gz|tgz|bz2|xz|7z|rar|tar|exe|dmg|iso|msi|apk|deb|rpm|woff2?|ttf|otf|eot|css|js|mjs|wasm)$/i;

export function inScope(url: string, scope: CrawlScope): boolean {
  const parsed = new URL(url);
  if (parsed.host !== scope.host) return false;
  if (NOT_A_PAGE.test(parsed.pathname)) return false;
  return scope.pathPrefix === undefined || parsed.pathname.startsWith(scope.pathPrefix);
}
