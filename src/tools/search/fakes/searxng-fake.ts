/**
 * @module A local SearXNG instance. Each behaviour names the page or source it reproduces:
 * - request: https://docs.searxng.org/dev/search_api.html (`GET /search?q=…&format=json`, `pageno`,
 *   `time_range`; no key); `time_range` as the parser takes it, day, week, month or year
 *   (searx/webadapter.py parse_time_range), a bad value answering 400 `{"error": …}` (searx/webapp.py
 *   index_error);
 * - JSON format not enabled in settings.yml: 403 Forbidden (same docs page; searx/webapp.py `flask.abort(403)`);
 * - the answer: searx/webutils.py get_json_response (`query`, `number_of_results`, `results` with `url`,
 *   `title`, `content`, `engine`, `publishedDate`…, `answers`, `corrections`, `infoboxes`, `suggestions`,
 *   `unresponsive_engines` as [engine, error] pairs); when every engine fails it is still a 200, with no
 *   results and the engines listed;
 * - the bot limiter: 429 with the text "Too Many Requests" and no Retry-After
 *   (searx/botdetection/_helpers.py too_many_requests).
 */
import {
  type CommonScenario,
  type FakeReply,
  HTML_PAGE,
  type SearchFake,
  type SeenRequest,
  startSearchFake,
} from "./fake-server.js";
import { FIXTURE_PAGES } from "./fixture-pages.js";

/** SearXNG has no key and no quota; it has a JSON format an operator may not have enabled. */
export type SearxngScenario = Exclude<CommonScenario, "quota"> | "format-disabled" | "engines-down";

const TIME_RANGES = new Set(["day", "week", "month", "year"]);

function page(
  query: string,
  results: readonly object[],
  unresponsive: readonly [string, string][] = [],
): FakeReply {
  return {
    status: 200,
    body: {
      query,
      number_of_results: 0,
      results,
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: unresponsive,
    },
  };
}

function answer(request: SeenRequest, scenario: SearxngScenario | undefined): FakeReply {
  if (request.path !== "/search" && request.path !== "/") {
    return { status: 404, headers: { "content-type": "text/html" }, body: "<h1>Not Found</h1>" };
  }
  const { q = "", format = "html", time_range: timeRange } = request.query;
  if (scenario === "format-disabled" || format !== "json") {
    return {
      status: 403,
      headers: { "content-type": "text/html" },
      body: "<!doctype html><title>403 Forbidden</title><h1>Forbidden</h1>",
    };
  }
  switch (scenario) {
    case "rate-limited":
      return {
        status: 429,
        headers: { "content-type": "text/html; charset=utf-8" },
        body: "Too Many Requests",
      };
    case "server-error":
      return {
        status: 500,
        headers: { "content-type": "text/html" },
        body: "<h1>Internal Server Error</h1>",
      };
    case "not-json":
      return HTML_PAGE;
    case "wrong-shape":
      return { status: 200, body: { query: q, results: "none" } };
    case "engines-down":
      return page(
        q,
        [],
        [
          ["duckduckgo", "CAPTCHA"],
          ["google", "timeout"],
        ],
      );
  }
  if (q.length === 0) return { status: 400, body: { error: "No query" } };
  if (timeRange !== undefined && !TIME_RANGES.has(timeRange)) {
    return { status: 400, body: { error: `Invalid value "${timeRange}" for parameter time_range` } };
  }
  return page(
    q,
    FIXTURE_PAGES.map((fixture, index) => ({
      url: fixture.url,
      title: fixture.title,
      content: fixture.snippet,
      engine: "duckduckgo",
      template: "default.html",
      engines: ["duckduckgo"],
      positions: [index + 1],
      publishedDate: fixture.published ?? null,
      score: 1 / (index + 1),
      category: "general",
    })),
  );
}

export function startSearxngFake(): Promise<SearchFake<SearxngScenario>> {
  return startSearchFake(answer);
}
