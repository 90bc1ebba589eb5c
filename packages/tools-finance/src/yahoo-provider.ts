/**
 * @module The yfinance adapter: Yahoo Finance's public chart endpoint, `GET /v8/finance/chart/{symbol}`,
 * the one the yfinance library reads prices from, with no key. Its `meta` carries the latest price, the
 * previous close, the currency, the exchange and the market time. An unknown symbol answers 404 with
 * `{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found, symbol may be
 * delisted"}}}` (ranaroussi/yfinance#2903 quotes it). It declares quotes only: yfinance reads fundamentals
 * from `/v10/finance/quoteSummary/{symbol}?modules=…&crumb=`, which answers 401 "Invalid Crumb" unless the
 * request carries the session cookie Yahoo set on fc.yahoo.com and the crumb `/v1/test/getcrumb` issued
 * for it. Egress refuses a Cookie header from an adapter (src/egress/request-headers.ts: credentials come
 * only from the deployment's references), and a per-session cookie is no deployment credential, so that
 * flow cannot pass through egress as it stands; fundamentals come from financial-datasets or openbb.
 */
import {
  endpointUrl,
  parseAnswer,
  retryAfterMs,
  sendRequest,
  shortDetail,
  statusFailure,
  ToolFailure,
  upstreamRateLimited,
  type VendorIdentity,
} from "toolreg/toolkit";
import { z } from "zod";
import type { FinanceProvider, ProviderSetup, Quote } from "./finance-provider.js";

export const YAHOO_BASE_URL = "https://query1.finance.yahoo.com";

const ChartError = z.object({ code: z.string(), description: z.string().nullish() });
const ChartMeta = z.object({
  symbol: z.string(),
  currency: z.string().nullish(),
  exchangeName: z.string().nullish(),
  fullExchangeName: z.string().nullish(),
  longName: z.string().nullish(),
  shortName: z.string().nullish(),
  regularMarketPrice: z.number(),
  regularMarketTime: z.number().int().nullish(),
  previousClose: z.number().nullish(),
  chartPreviousClose: z.number().nullish(),
});
const ChartAnswer = z.object({
  chart: z.object({
    result: z.array(z.object({ meta: ChartMeta })).nullable(),
    error: ChartError.nullable(),
  }),
});
const ChartFailureBody = z.object({ chart: z.object({ error: ChartError }) });

export function createYahooProvider({ baseUrl, egress }: ProviderSetup): FinanceProvider {
  const identity: VendorIdentity = {
    label: "Yahoo Finance",
    whenRefused: `Yahoo Finance's chart endpoint takes no key, so something between toolreg and ${baseUrl} is refusing it; check the deployment's egress or proxy`,
  };
  return {
    name: "yfinance",
    label: identity.label,
    endpoint: endpointUrl(baseUrl, "/v8/finance/chart"),
    supports: ["stock_quote"],
    // Yahoo's own spelling (ranaroussi/yfinance#38, #50): BRK.B is not found there.
    symbolHint:
      "Yahoo spells a share class with a hyphen (BRK-B, not BRK.B) and a listing outside the US with its market's suffix (VOD.L, 7203.T)",
    async quote(symbol, context) {
      const url = new URL(endpointUrl(baseUrl, `/v8/finance/chart/${encodeURIComponent(symbol)}`));
      url.searchParams.set("range", "1d");
      url.searchParams.set("interval", "1d");
      const { response, body } = await sendRequest(egress, context, url.href);
      if (response.status === 404) {
        const failure = ChartFailureBody.safeParse(body);
        if (failure.success && failure.data.chart.error.code === "Not Found") return undefined;
      }
      if (response.status === 429) {
        // Yahoo answers a plain "Too Many Requests" both to bursts and to clients it takes for automated
        // ones (tradingview/yahoo_datafeed#9, atreadw1492/yahoo_fin#130); since 2025 that includes any client
        // without a browser's TLS fingerprint (ranaroussi/yfinance#2422), which this one is. Only a
        // Retry-After marks a burst that waiting cures; without one, retrying is the loop to avoid.
        const wait = retryAfterMs(response.headers["retry-after"]);
        if (wait !== undefined) {
          throw upstreamRateLimited("Yahoo Finance is rate limiting these requests (429 Too Many Requests)", {
            retryAfterMs: wait,
            details: { status: 429, limit: "rate" },
          });
        }
        throw new ToolFailure(
          "upstream_rate_limited",
          "Yahoo Finance answered 429 Too Many Requests with no time to wait, which is how it refuses automated clients outright; retrying will not help: the deployment should configure the financial-datasets provider",
          { retryable: false, details: { status: 429, limit: "refused" } },
        );
      }
      if (response.status >= 400) {
        const failure = ChartFailureBody.safeParse(body);
        const detail = failure.success
          ? shortDetail(failure.data.chart.error.description ?? failure.data.chart.error.code)
          : undefined;
        throw statusFailure(identity, response, detail);
      }
      const answer = parseAnswer(identity, response, body, ChartAnswer);
      const meta = answer.chart.result?.[0]?.meta;
      const { error } = answer.chart;
      if (error !== null && error.code !== "Not Found") {
        throw new ToolFailure(
          "upstream_error",
          `Yahoo Finance could not chart ${symbol}: ${shortDetail(error.description ?? error.code)}`,
          { retryable: false },
        );
      }
      if (error !== null || meta === undefined) return undefined;
      return quoteOf(meta);
    },
  };
}

function quoteOf(meta: z.output<typeof ChartMeta>): Quote {
  const price = meta.regularMarketPrice;
  const previous = meta.previousClose ?? meta.chartPreviousClose ?? null;
  const change = previous === null ? null : round(price - previous);
  return {
    symbol: meta.symbol,
    name: meta.longName ?? meta.shortName ?? null,
    price,
    change,
    changePercent: previous === null || previous === 0 ? null : round(((price - previous) / previous) * 100),
    previousClose: previous,
    currency: meta.currency ?? null,
    exchange: meta.fullExchangeName ?? meta.exchangeName ?? null,
    marketTime:
      meta.regularMarketTime === undefined || meta.regularMarketTime === null
        ? null
        : new Date(meta.regularMarketTime * 1000).toISOString(),
  };
}

/** Differences of binary floats print as 1.2300000000000182; four decimals is what a quote shows. */
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
