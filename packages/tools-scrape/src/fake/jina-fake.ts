/**
 * @module Jina Reader as a local fake (https://github.com/jina-ai/reader, https://jina.ai/reader):
 * `GET /<url>` with `Accept: application/json` answers `{code: 200, status: 20000, data: {title, description,
 * url, content, usage: {tokens}}}`; errors carry `{data: null, code, name, status, message,
 * readableMessage}`: 401 for a bad key, 402 when the key's balance is spent (InsufficientBalanceError), 429
 * over the rate limit (RateLimitTriggeredError; limits per key and IP in the Rate limit tab of https://jina.ai/reader),
 * with Retry-After only when the error knows when, seconds or an HTTP date
 * (https://github.com/jina-ai/reader/blob/main/src/services/errors.ts, RateLimitTriggeredError).
 */
import { type LocalServer, type Reply, type SeenRequest, startLocalServer } from "./local-server.js";
import { HTML_PAGE, type VendorPages, type VendorScenario } from "./vendor-pages.js";

export interface JinaFake extends LocalServer {
  next(scenario: VendorScenario): void;
}

export async function startJinaFake(key: string | undefined, pages: VendorPages): Promise<JinaFake> {
  const queued: VendorScenario[] = [];
  const server = await startLocalServer((request) => answer(request, queued.shift(), key, pages));
  return Object.assign(server, { next: (scenario: VendorScenario) => void queued.push(scenario) });
}

const failure = (
  code: number,
  name: string,
  message: string,
  headers: Record<string, string> = {},
): Reply => ({
  status: code,
  headers,
  body: { data: null, code, name, message, readableMessage: `${name}: ${message}` },
});

function answer(
  request: SeenRequest,
  scenario: VendorScenario | undefined,
  key: string | undefined,
  pages: VendorPages,
): Reply {
  if (key !== undefined && request.headers.authorization !== `Bearer ${key}`)
    return failure(
      401,
      "AuthenticationFailedError",
      "Invalid API key, please get a new one from https://jina.ai",
    );
  switch (scenario) {
    case "unauthorized":
      return failure(401, "AuthenticationFailedError", "Invalid API key");
    case "credits":
      return failure(
        402,
        "InsufficientBalanceError",
        "Account balance not enough to run this query, please recharge.",
      );
    case "rate-limited":
      return failure(429, "RateLimitTriggeredError", "Per IP rate limit exceeded", { "retry-after": "20" });
    case "rate-limited-bare":
      return failure(429, "RateLimitTriggeredError", "Per IP rate limit exceeded");
    case "server-error":
      return failure(500, "InternalServerError", "Internal server error");
    case "not-json":
      return HTML_PAGE;
    case "wrong-shape":
      return { status: 200, body: { code: 200, status: 20000, data: { title: "x" } } };
    default:
  }
  if (request.headers.accept !== "application/json")
    return { status: 200, headers: { "content-type": "text/plain" }, body: "Title: plain" };
  const target = request.target.slice(1);
  const page = pages[target];
  // Reader's browser failing to navigate (a name that does not resolve, a refused connection) is its 422
  // AssertionFailureError "Failed to goto <url>: <error>" (jina-ai/reader, src/services/puppeteer.ts). A site
  // answering 404 does not fail navigation: Reader renders what the browser shows (statusCode on a page here).
  if (page === undefined)
    return failure(
      422,
      "AssertionFailureError",
      `Failed to goto ${target}: Error: net::ERR_NAME_NOT_RESOLVED`,
    );
  return {
    status: 200,
    body: {
      code: 200,
      status: 20000,
      data: {
        title: page.title,
        description: "",
        url: page.finalUrl ?? target,
        content: page.markdown,
        usage: { tokens: Math.ceil(page.markdown.length / 4) },
      },
    },
  };
}
