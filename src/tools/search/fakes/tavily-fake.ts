/**
 * @module A local Tavily. Each behaviour names the page it reproduces:
 * - request and answer: https://docs.tavily.com/api-reference/endpoint/search (`POST /search`, bearer
 *   key, `max_results` 0–20, `time_range`, `include_domains`; `{ query, answer, images, results:
 *   [{ title, url, content, score, raw_content }], response_time }`; `published_date` only for the news
 *   topic, so a general search has none);
 * - the 400-character query limit and its error body: Tavily's search best-practices page
 *   (`{"detail": {"error": "Query is too long. Max query length is 400 characters."}}`);
 * - errors: https://help.tavily.com/articles/8645538886-understanding-http-errors (401 missing or invalid
 *   key, 429 excessive requests, 432 plan limit, 433 pay-as-you-go limit, 500), with the `detail.error`
 *   body the official client reads (tavily-ai/tavily-python, tavily/tavily.py). The 429 carries no
 *   Retry-After there, so none is sent here.
 */
import {
  type CommonScenario,
  type FakeReply,
  HTML_PAGE,
  jsonOf,
  type SearchFake,
  type SeenRequest,
  startSearchFake,
} from "./fake-server.js";
import { FIXTURE_PAGES, TEST_KEY } from "./fixture-pages.js";

export type TavilyScenario = CommonScenario | "pay-as-you-go-limit";

const tavilyError = (status: number, error: string): FakeReply => ({ status, body: { detail: { error } } });

function answer(request: SeenRequest, scenario: TavilyScenario | undefined): FakeReply {
  if (request.path !== "/search") return { status: 404, body: { detail: "Not Found" } };
  if (request.method !== "POST") return { status: 405, body: { detail: "Method Not Allowed" } };
  if (request.headers.authorization !== `Bearer ${TEST_KEY}`) {
    return tavilyError(401, "Unauthorized: missing or invalid API key.");
  }
  switch (scenario) {
    case "rate-limited":
      return tavilyError(
        429,
        "Your request has been blocked due to excessive requests. Please reduce rate of requests.",
      );
    case "quota":
      return tavilyError(
        432,
        "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com",
      );
    case "pay-as-you-go-limit":
      return tavilyError(
        433,
        "This request exceeds the pay-as-you-go limit. You can increase your limit on the Tavily dashboard",
      );
    case "server-error":
      return tavilyError(500, "Internal Server Error");
    case "not-json":
      return HTML_PAGE;
    case "wrong-shape":
      return { status: 200, body: { query: "tea", answer: null, response_time: 0.5 } };
  }
  // How Tavily words a missing query or a max_results out of its documented range is not published; the
  // fake refuses both (in Tavily's error shape) so that a test notices an adapter sending either.
  const body = jsonOf(request);
  const query = body?.query;
  if (typeof query !== "string" || query.length === 0) return tavilyError(400, "Query is missing.");
  if (query.length > 400) return tavilyError(400, "Query is too long. Max query length is 400 characters.");
  const max = body?.max_results ?? 5;
  if (typeof max !== "number" || max < 0 || max > 20) return tavilyError(400, "Invalid max_results.");
  return {
    status: 200,
    body: {
      query,
      follow_up_questions: null,
      answer: null,
      images: [],
      results: FIXTURE_PAGES.slice(0, max).map((page, index) => ({
        title: page.title,
        url: page.url,
        content: page.snippet,
        score: 0.9 - index / 20,
        raw_content: null,
      })),
      response_time: 1.07,
      request_id: "123e4567-e89b-12d3-a456-426614174111",
    },
  };
}

export function startTavilyFake(): Promise<SearchFake<TavilyScenario>> {
  return startSearchFake(answer);
}
