/**
 * @module A local Serper. Serper documents its API only through its playground (https://serper.dev/playground),
 * so each behaviour names where it was seen:
 * - request and answer as the playground shows them: `POST /search`, `X-API-KEY`, `{ q, num, tbs }`;
 *   `{ searchParameters: { q, type, engine, … }, organic: [{ title, link, snippet, date?, position }],
 *   credits }`, with no `organic` when Google found nothing;
 * - a bad key: 403 `{"message":"Unauthorized.","statusCode":403}` (github.com/tomlidgett1/bike-dashboard,
 *   CHECK_SERPER_KEY.md);
 * - spent credits: 400 `{"message":"Not enough credits","statusCode":400}`, a 400 and not a 402, quoted
 *   verbatim from live calls in several public clients' notes and tests (none of them Serper's own docs);
 * - 429 when requests come too fast (the clients that back off on it); its body is not published, so the
 *   fake answers in Serper's error shape and the adapter reads only the status.
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

const serperError = (statusCode: number, message: string): FakeReply => ({
  status: statusCode,
  body: { message, statusCode },
});

function answer(request: SeenRequest, scenario: CommonScenario | undefined): FakeReply {
  if (request.method !== "POST" || request.path !== "/search") return serperError(404, "Not found");
  if (request.headers["x-api-key"] !== TEST_KEY) return serperError(403, "Unauthorized.");
  switch (scenario) {
    case "rate-limited":
      return serperError(429, "Too many requests");
    case "quota":
      return serperError(400, "Not enough credits");
    case "server-error":
      return {
        status: 502,
        headers: { "content-type": "text/html" },
        body: "<html><body>502 Bad Gateway</body></html>",
      };
    case "not-json":
      return HTML_PAGE;
    case "wrong-shape":
      return { status: 200, body: { organic: [{ title: "no parameters", link: "https://tea.example/" }] } };
  }
  // Serper's answer to a missing query is not published; the fake refuses it so a test notices.
  const body = jsonOf(request);
  const q = body?.q;
  if (typeof q !== "string" || q.length === 0) return serperError(400, "Query is required");
  const num = typeof body?.num === "number" ? body.num : 10;
  return {
    status: 200,
    body: {
      searchParameters: {
        q,
        type: "search",
        engine: "google",
        num,
        ...(typeof body?.tbs === "string" ? { tbs: body.tbs } : {}),
      },
      organic: FIXTURE_PAGES.slice(0, num).map((page, index) => ({
        title: page.title,
        link: page.url,
        snippet: page.snippet,
        ...(page.published ? { date: page.published } : {}),
        position: index + 1,
      })),
      credits: 1,
    },
  };
}

export function startSerperFake(): Promise<SearchFake> {
  return startSearchFake(answer);
}
