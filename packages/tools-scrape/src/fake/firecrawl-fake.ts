/**
 * @module Firecrawl's scrape API as a local fake, answering in its documented shapes:
 * - POST /v2/scrape (https://docs.firecrawl.dev/api-reference/endpoint/scrape): `{success: true, data:
 *   {markdown, links, rawHtml, metadata: {title, sourceURL, url, statusCode}}}`, the formats asked for only;
 * - errors (https://docs.firecrawl.dev/api-reference/errors): `{success: false, error}`; 401 "Unauthorized:
 *   Invalid token", 402 "Payment Required: Insufficient credits", 429 over the rate limit, Retry-After in
 *   seconds when present (https://docs.firecrawl.dev/rate-limits).
 */
import { type LocalServer, type Reply, type SeenRequest, startLocalServer } from "./local-server.js";
import { HTML_PAGE, type VendorPages, type VendorScenario } from "./vendor-pages.js";

export interface FirecrawlFake extends LocalServer {
  next(scenario: VendorScenario): void;
}

export async function startFirecrawlFake(key: string, pages: VendorPages): Promise<FirecrawlFake> {
  const queued: VendorScenario[] = [];
  const server = await startLocalServer((request) => answer(request, queued.shift(), key, pages));
  return Object.assign(server, { next: (scenario: VendorScenario) => void queued.push(scenario) });
}

const failure = (status: number, error: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers,
  body: { success: false, error },
});

function answer(
  request: SeenRequest,
  scenario: VendorScenario | undefined,
  key: string,
  pages: VendorPages,
): Reply {
  if (request.method !== "POST" || request.path !== "/v2/scrape") return failure(404, "Not Found");
  if (request.headers.authorization !== `Bearer ${key}` || scenario === "unauthorized")
    return failure(401, "Unauthorized: Invalid token");
  switch (scenario) {
    case "credits":
      return failure(402, "Payment Required: Insufficient credits to perform this request.");
    case "rate-limited":
      return failure(429, "Rate limit exceeded. Consumed (req/min): 11, Remaining (req/min): 0.", {
        "retry-after": "7",
      });
    case "rate-limited-bare":
      return failure(429, "Rate limit exceeded. Please wait and try again later.");
    case "server-error":
      return failure(500, "An unexpected error occurred. Please contact help@firecrawl.com for help.");
    case "not-json":
      return HTML_PAGE;
    case "wrong-shape":
      return { status: 200, body: { success: true, data: "markdown here" } };
    default:
  }
  let body: { url?: unknown; formats?: unknown };
  try {
    body = JSON.parse(request.body);
  } catch {
    return failure(400, "Bad Request");
  }
  if (typeof body.url !== "string" || !Array.isArray(body.formats)) return failure(400, "Bad Request");
  const page = pages[body.url];
  const formats = body.formats as string[];
  if (page === undefined) {
    // The site answered 404: Firecrawl still succeeds and reports the status in the metadata.
    return {
      status: 200,
      body: {
        success: true,
        data: { markdown: "", metadata: { sourceURL: body.url, url: body.url, statusCode: 404 } },
      },
    };
  }
  return {
    status: 200,
    body: {
      success: true,
      data: {
        ...(formats.includes("markdown") ? { markdown: page.markdown } : {}),
        ...(formats.includes("rawHtml") ? { rawHtml: rawHtmlOf(body.url, page.markdown) } : {}),
        ...(formats.includes("links") ? { links: page.links ?? [] } : {}),
        metadata: {
          title: page.title,
          sourceURL: body.url,
          url: page.finalUrl ?? body.url,
          statusCode: page.statusCode ?? 200,
          contentType: "text/html",
        },
      },
    },
  };
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/**
 * Firecrawl renders a page in a browser engine, and a plain-text file (robots.txt) comes back as the
 * document Chromium makes of text/plain: the text, escaped, in one `<pre>`.
 */
function rawHtmlOf(url: string, text: string): string {
  if (!new URL(url).pathname.endsWith(".txt")) return text;
  const escaped = text.replace(/[&<>"]/g, (char) => ESCAPES[char] ?? char);
  return `<html><head><meta name="color-scheme" content="light dark"></head><body><pre style="word-wrap: break-word; white-space: pre-wrap;">${escaped}</pre></body></html>`;
}
