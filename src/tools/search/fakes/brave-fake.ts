/**
 * @module A local Brave Search API. Each behaviour names the page it reproduces:
 * - request and bounds: https://api-dashboard.search.brave.com/api-reference/web/search/get (`q` 1–400
 *   characters and at most 50 words, `count` 1–20; the key in `x-subscription-token`);
 * - the answer: https://api-dashboard.search.brave.com/app/documentation/web-search/responses
 *   (`WebSearchApiResponse`, `type: "search"`, results under `web.results` with `page_age`);
 * - errors: the API reference's 422 `SUBSCRIPTION_TOKEN_INVALID` and 429 `RATE_LIMITED` /
 *   `QUOTA_LIMITED` examples, sent as the live API sends them (`error: {…}`, not the examples' `errors`
 *   list: github.com/egoist/chatwise-releases/issues/1296 and issues/936); a request that fails validation
 *   is 422 `VALIDATION`;
 * - limit headers: https://api-dashboard.search.brave.com/app/documentation/web-search/response-headers
 *   (`X-RateLimit-Remaining: 0, 1985`, `X-RateLimit-Reset: 1, 1419704`: per second, per month);
 * - a throttled request answered with an HTML challenge page instead of JSON
 *   (github.com/THU-MAIC/OpenMAIC/pull/1553).
 */
import {
  type CommonScenario,
  type FakeReply,
  HTML_PAGE,
  type SearchFake,
  type SeenRequest,
  startSearchFake,
} from "./fake-server.js";
import { FIXTURE_PAGES, TEST_KEY } from "./fixture-pages.js";

/**
 * Beyond the common failures: a refused key in the reference's `errors: [...]` form, and an answer with
 * no `web` key at all, which is how Brave says a query found no web results.
 */
export type BraveScenario = CommonScenario | "documented-error-list" | "no-web-results";

export const BRAVE_RATE_RESET_S = 1;
export const BRAVE_MONTH_RESET_S = 1_419_704;

const LIMITS = {
  "x-ratelimit-limit": "1, 2000",
  "x-ratelimit-policy": "1;w=1, 2000;w=2592000",
};

function braveError(status: number, code: string, detail: string, meta: object = {}): FakeReply {
  return {
    status,
    body: {
      type: "ErrorResponse",
      error: { id: "5d832250-9396-4f6e-b84a-2a1fe524cd7d", status, code, detail, meta },
      time: 1_663_072_993,
    },
  };
}

const invalid = (location: string[]) =>
  braveError(422, "VALIDATION", "Unable to validate request parameter(s)", {
    errors: [{ type: "value_error", loc: location, msg: "invalid value" }],
  });

function answer(request: SeenRequest, scenario: BraveScenario | undefined): FakeReply {
  if (request.method !== "GET" || request.path !== "/res/v1/web/search") {
    return braveError(404, "NOT_FOUND", "Resource not found.");
  }
  const token = request.headers["x-subscription-token"];
  if (token === undefined) return invalid(["header", "x-subscription-token"]);
  if (token !== TEST_KEY) {
    return braveError(422, "SUBSCRIPTION_TOKEN_INVALID", "The provided subscription token is invalid.", {
      component: "authentication",
    });
  }
  switch (scenario) {
    case "rate-limited":
      return {
        ...braveError(429, "RATE_LIMITED", "Request rate limit exceeded for plan.", {
          component: "rate_limiter",
        }),
        headers: {
          ...LIMITS,
          "x-ratelimit-remaining": "0, 1985",
          "x-ratelimit-reset": `${BRAVE_RATE_RESET_S}, ${BRAVE_MONTH_RESET_S}`,
        },
      };
    case "quota":
      return {
        ...braveError(429, "QUOTA_LIMITED", "Request quota limit exceeded for plan.", {
          component: "rate_limiter",
        }),
        headers: {
          ...LIMITS,
          "x-ratelimit-remaining": "1, 0",
          "x-ratelimit-reset": `${BRAVE_RATE_RESET_S}, ${BRAVE_MONTH_RESET_S}`,
        },
      };
    case "server-error":
      return { status: 503, headers: { "content-type": "text/plain" }, body: "Service Unavailable" };
    case "not-json":
      return HTML_PAGE;
    case "wrong-shape":
      return { status: 200, body: { type: "search", web: { type: "search", results: "none" } } };
    case "documented-error-list": {
      const { error, ...rest } = braveError(
        422,
        "SUBSCRIPTION_TOKEN_INVALID",
        "The provided subscription token is invalid.",
      ).body as { error: object };
      return { status: 422, body: { ...rest, errors: [error] } };
    }
    case "no-web-results":
      return { status: 200, body: { type: "search", query: { original: request.query.q ?? "" } } };
  }
  const q = request.query.q ?? "";
  if (q.length === 0 || q.length > 400 || q.trim().split(/\s+/).length > 50) return invalid(["query", "q"]);
  const count = Number(request.query.count ?? "20");
  if (!Number.isInteger(count) || count < 1 || count > 20) return invalid(["query", "count"]);
  return {
    status: 200,
    headers: { ...LIMITS, "x-ratelimit-remaining": "0, 1999", "x-ratelimit-reset": "1, 1419704" },
    body: {
      type: "search",
      query: { original: q, more_results_available: false },
      web: {
        type: "search",
        family_friendly: true,
        results: FIXTURE_PAGES.slice(0, count).map((page) => ({
          type: "search_result",
          title: page.title,
          url: page.url,
          description: page.snippet,
          ...(page.published ? { page_age: page.published, age: "May 1, 2024" } : {}),
          language: "en",
          family_friendly: true,
        })),
      },
    },
  };
}

export function startBraveFake(): Promise<SearchFake<BraveScenario>> {
  return startSearchFake(answer);
}
