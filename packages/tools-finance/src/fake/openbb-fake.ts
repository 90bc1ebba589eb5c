/**
 * @module A local OpenBB Platform API (`openbb-api`). What it reproduces:
 * - `GET /api/v1/equity/price/quote?symbol=[&provider=]` answering an OBBject `{id, results, provider,
 *   warnings, chart, extra}` whose results follow openbb_core's EquityQuoteData (`last_price`,
 *   `prev_close`, `change`, `change_percent` as a normalized fraction, `last_timestamp`, `exchange`);
 * - the fundamentals routes: profile, income, balance and metrics (openbb-fundamentals-fake.ts), fmp's
 *   metrics as its current model sends them or, for the `fmp-v3-metrics` and `fmp-v3-early-metrics`
 *   scenarios, as its two earlier ones did;
 * - the API's basic auth when configured (a 401 for a wrong or missing credential);
 * - its exception handlers (openbb_core/api/exception_handlers.py): 204 and no body when the data
 *   provider found nothing (EmptyDataError), 400 `{detail}` for an OpenBBError, 422 `{detail: [...]}`
 *   for a bad parameter, 500 `{detail: "Unexpected error."}`;
 * - 429, which none of openbb-api's exception handlers sends: a reverse proxy or
 *   gateway in front of a deployment answers it (RFC 6585 §4, https://www.rfc-editor.org/rfc/rfc6585#section-4),
 *   with and without the Retry-After it may add (RFC 9110 §10.2.3,
 *   https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3);
 * - a page in place of JSON and a malformed 200.
 */
import { type FakeReply, HTML_PAGE, type SeenRequest, startVendorFake, type VendorFake } from "toolreg/test";
import { fundamentalsReply, fundamentalsWrongShape } from "./openbb-fundamentals-fake.js";

/** base64("analyst:s3cret"), as egress would send it after the Basic scheme. */
export const OPENBB_BASIC = Buffer.from("analyst:s3cret").toString("base64");

export type OpenBBScenario =
  | "provider-error"
  | "unexpected"
  | "rate-limited"
  | "rate-limited-retry-after"
  | "not-json"
  | "wrong-shape"
  | "fmp-v3-metrics"
  | "fmp-v3-early-metrics";

function answer(request: SeenRequest, scenario: OpenBBScenario | undefined): FakeReply {
  if (request.headers.authorization !== `Basic ${OPENBB_BASIC}`) {
    return {
      status: 401,
      headers: { "www-authenticate": "Basic" },
      body: { detail: "Incorrect username or password" },
    };
  }
  switch (scenario) {
    case "provider-error":
      return { status: 400, body: { detail: "Missing credential 'fmp_api_key'." } };
    case "unexpected":
      return { status: 500, body: { detail: "Unexpected error." } };
    case "rate-limited":
      return { status: 429, headers: { "content-type": "text/plain" }, body: "Too Many Requests" };
    case "rate-limited-retry-after":
      return {
        status: 429,
        headers: { "content-type": "text/plain", "retry-after": "7" },
        body: "Too Many Requests",
      };
    case "not-json":
      return HTML_PAGE;
    case "wrong-shape":
      return (
        fundamentalsWrongShape(request.path) ?? {
          status: 200,
          body: { results: [{ symbol: "AAPL", last_price: "195.5" }] },
        }
      );
  }
  const fmpMetrics =
    scenario === "fmp-v3-metrics" ? "v3" : scenario === "fmp-v3-early-metrics" ? "v3-early" : "stable";
  const fundamentals = fundamentalsReply(request, fmpMetrics);
  if (fundamentals !== undefined) return fundamentals;
  if (request.path !== "/api/v1/equity/price/quote") return { status: 404, body: { detail: "Not Found" } };
  const symbol = request.query.symbol;
  if (symbol === undefined) {
    return {
      status: 422,
      body: { detail: [{ type: "missing", loc: ["query", "symbol"], msg: "Field required" }] },
    };
  }
  if (symbol !== "AAPL") return { status: 204 };
  return {
    status: 200,
    body: {
      id: "06649f4e-896c-7b31-8000-52242b1605f2",
      results: [
        {
          symbol: "AAPL",
          asset_type: "EQUITY",
          name: "Apple Inc.",
          exchange: "NMS",
          last_price: 195.5,
          last_timestamp: "2026-12-05T16:00:00-05:00",
          prev_close: 193.25,
          change: 2.25,
          change_percent: 0.011643,
          currency: "USD",
        },
      ],
      provider: request.query.provider ?? "yfinance",
      warnings: null,
      chart: null,
      extra: { metadata: {} },
    },
  };
}

export function startOpenBBFake(): Promise<VendorFake<OpenBBScenario>> {
  return startVendorFake(answer);
}
