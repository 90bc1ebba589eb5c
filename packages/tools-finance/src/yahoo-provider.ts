/**
 * @module The yfinance adapter, no key. Quotes come from Yahoo Finance's public chart endpoint,
 * `GET /v8/finance/chart/{symbol}`, the one the yfinance library reads prices from: its `meta` carries the
 * latest price, the previous close, the currency, the exchange and the market time. An unknown symbol
 * answers 404 with `{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found,
 * symbol may be delisted"}}}` (ranaroussi/yfinance#2903 quotes it). Fundamentals come from quoteSummary
 * within a cookie-and-crumb session (yahoo-fundamentals.ts), which is why the toolkit binds this adapter's
 * egress client with a session cookie jar and fc.yahoo.com among its hosts.
 */
import {
  endpointUrl,
  parseAnswer,
  sendRequest,
  shortDetail,
  statusFailure,
  ToolFailure,
  type VendorIdentity,
} from "toolreg/toolkit";
import { z } from "zod";
import type { FinanceProvider, ProviderSetup, Quote } from "./finance-provider.js";
import { createYahooFundamentals, yahooSessionUrl } from "./yahoo-fundamentals.js";
import { yahooRateLimited } from "./yahoo-rate-limit.js";

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
    whenRefused: `Yahoo Finance takes no key, so something between toolreg and ${baseUrl} is refusing it, or refusing the session its cookie and crumb open; check the deployment's egress or proxy`,
  };
  return {
    name: "yfinance",
    label: identity.label,
    endpoint: endpointUrl(baseUrl, "/v8/finance/chart"),
    supports: ["stock_quote", "stock_fundamentals"],
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
      if (response.status === 429) throw yahooRateLimited(response);
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
    fundamentals: createYahooFundamentals(
      baseUrl,
      yahooSessionUrl(baseUrl, YAHOO_BASE_URL),
      egress,
      identity,
    ),
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
