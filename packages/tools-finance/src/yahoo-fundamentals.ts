/**
 * @module Yahoo Finance fundamentals as yfinance reads them (ranaroussi/yfinance yfinance/scrapers/quote.py
 * `_fetch_info`): `GET /v10/finance/quoteSummary/{symbol}?modules=financialData,quoteType,
 * defaultKeyStatistics,assetProfile,summaryDetail&crumb=…`. Yahoo answers it only within a session
 * (yfinance/data.py `_get_cookie_basic` and `_get_crumb_basic`): the A3 cookie Yahoo sets on any answer of
 * https://fc.yahoo.com, then the crumb, the plain-text body of `/v1/test/getcrumb` asked with that cookie.
 * The cookie lives in the egress client's own jar (sessionCookies); the crumb is kept here and renewed,
 * with a fresh cookie, once when Yahoo answers 401 "Invalid Crumb". These modules give trailing-twelve-month
 * figures and no balance sheet, so assets, liabilities, equity, cash and operating income are null.
 */
import {
  type EgressClient,
  type EgressResponse,
  endpointUrl,
  parseAnswer,
  sendRequest,
  shortDetail,
  statusFailure,
  type ToolContext,
  ToolFailure,
  type VendorIdentity,
} from "toolreg/toolkit";
import { z } from "zod";
import type { Fundamentals, Period } from "./finance-provider.js";
import { yahooRateLimited } from "./yahoo-rate-limit.js";

export const YAHOO_SESSION_URL = "https://fc.yahoo.com";
/**
 * Where the session cookie is asked: fc.yahoo.com before Yahoo's own API; a stand-in the deployment names
 * (a mirror, the test's fake) serves its root in its place.
 */
export function yahooSessionUrl(baseUrl: string, yahooBaseUrl: string): string {
  return baseUrl === yahooBaseUrl ? YAHOO_SESSION_URL : new URL("/", baseUrl).href;
}

const MODULES = "financialData,quoteType,defaultKeyStatistics,assetProfile,summaryDetail";

// A figure comes as {raw, fmt} (quote.py `_format` reads `raw`), a count such as employees as a number.
const num = z
  .union([z.number(), z.object({ raw: z.number().nullish() }).transform((value) => value.raw)])
  .nullish()
  .transform((value) => value ?? null);
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

const Summary = z.object({
  quoteType: z.object({ symbol: z.string(), longName: text, shortName: text, exchange: text }).nullish(),
  assetProfile: z.object({ sector: text, industry: text, fullTimeEmployees: num, website: text }).nullish(),
  financialData: z
    .object({
      financialCurrency: text,
      totalRevenue: num,
      grossProfits: num,
      grossMargins: num,
      operatingMargins: num,
      profitMargins: num,
      returnOnEquity: num,
      debtToEquity: num,
      currentRatio: num,
    })
    .nullish(),
  defaultKeyStatistics: z
    .object({ trailingEps: num, netIncomeToCommon: num, priceToBook: num, mostRecentQuarter: num })
    .nullish(),
  summaryDetail: z.object({ marketCap: num, trailingPE: num, priceToSalesTrailing12Months: num }).nullish(),
});
const SummaryError = z.object({ code: z.string(), description: z.string().nullish() });
const SummaryAnswer = z.object({
  quoteSummary: z.object({ result: z.array(Summary).nullable(), error: SummaryError.nullable() }),
});
const SummaryFailure = z.object({ quoteSummary: z.object({ error: SummaryError }) });
const FinanceFailure = z.object({ finance: z.object({ error: SummaryError }) });

/** Reads one symbol's fundamentals within a Yahoo session this reader keeps (its crumb, the client's cookie). */
export function createYahooFundamentals(
  baseUrl: string,
  sessionUrl: string,
  egress: EgressClient,
  identity: VendorIdentity,
): (symbol: string, period: Period, context: ToolContext) => Promise<Fundamentals | undefined> {
  let crumb: Promise<string> | undefined;
  const session = (context: ToolContext) => {
    if (crumb) return crumb;
    const attempt = newCrumb(baseUrl, sessionUrl, egress, context, identity);
    // Concurrent calls share one attempt; a failed one is not kept, so the next call starts afresh.
    crumb = attempt;
    attempt.catch(() => {
      if (crumb === attempt) crumb = undefined;
    });
    return attempt;
  };
  return async (symbol, period, context) => {
    let answer = await summary(baseUrl, egress, context, symbol, await session(context));
    if (invalidCrumb(answer)) {
      crumb = undefined;
      answer = await summary(baseUrl, egress, context, symbol, await session(context));
    }
    const { response, body } = answer;
    if (response.status === 404) {
      const failure = SummaryFailure.safeParse(body);
      if (failure.success && failure.data.quoteSummary.error.code === "Not Found") return undefined;
    }
    if (response.status === 429) throw yahooRateLimited(response);
    if (response.status >= 400) throw statusFailure(identity, response, errorDetail(body));
    const parsed = parseAnswer(identity, response, body, SummaryAnswer).quoteSummary;
    const found = parsed.result?.[0];
    if (found === undefined) return undefined;
    return fundamentalsOf(symbol, period, found);
  };
}

/** A new session: the cookie from the session URL (any status sets it), then the crumb asked with it. */
async function newCrumb(
  baseUrl: string,
  sessionUrl: string,
  egress: EgressClient,
  context: ToolContext,
  identity: VendorIdentity,
): Promise<string> {
  const cookie = await sendRequest(egress, context, sessionUrl, { headers: { accept: "*/*" } });
  if (cookie.response.status === 429) throw yahooRateLimited(cookie.response);
  const { response, body } = await sendRequest(egress, context, endpointUrl(baseUrl, "/v1/test/getcrumb"), {
    headers: { accept: "text/plain" },
  });
  if (response.status === 429) throw yahooRateLimited(response);
  const value = response.body.toString("utf8").trim();
  if (response.status >= 400) throw statusFailure(identity, response, errorDetail(body));
  // yfinance's check too: an HTML page is no crumb; a crumb is a short token.
  if (value === "" || value.length > 64 || /[<\s]/.test(value)) {
    throw new ToolFailure(
      "upstream_error",
      "Yahoo Finance issued no session crumb (its answer was not one)",
      {
        retryable: false,
        details: { status: response.status },
      },
    );
  }
  return value;
}

function summary(
  baseUrl: string,
  egress: EgressClient,
  context: ToolContext,
  symbol: string,
  crumb: string,
): Promise<{ response: EgressResponse; body: unknown }> {
  const url = new URL(endpointUrl(baseUrl, `/v10/finance/quoteSummary/${encodeURIComponent(symbol)}`));
  url.searchParams.set("modules", MODULES);
  url.searchParams.set("crumb", crumb);
  return sendRequest(egress, context, url.href);
}

function invalidCrumb({ response, body }: { response: EgressResponse; body: unknown }): boolean {
  const failure = FinanceFailure.safeParse(body);
  return (
    response.status === 401 && failure.success && failure.data.finance.error.description === "Invalid Crumb"
  );
}

function errorDetail(body: unknown): string | undefined {
  const failure = SummaryFailure.safeParse(body);
  const error = failure.success
    ? failure.data.quoteSummary.error
    : FinanceFailure.safeParse(body).data?.finance.error;
  return error ? shortDetail(error.description ?? error.code) : undefined;
}

function fundamentalsOf(symbol: string, period: Period, found: z.output<typeof Summary>): Fundamentals {
  const { quoteType, assetProfile, financialData, defaultKeyStatistics, summaryDetail } = found;
  const quarter = defaultKeyStatistics?.mostRecentQuarter ?? null;
  return {
    symbol: quoteType?.symbol ?? symbol,
    period,
    company: {
      name: quoteType?.longName ?? quoteType?.shortName ?? null,
      sector: assetProfile?.sector ?? null,
      industry: assetProfile?.industry ?? null,
      exchange: quoteType?.exchange ?? null,
      employees: assetProfile?.fullTimeEmployees ?? null,
      website: assetProfile?.website ?? null,
    },
    // Yahoo's figures here are the trailing twelve months to the latest quarter, whichever period is asked.
    statement: {
      reportPeriod: quarter === null ? null : new Date(quarter * 1000).toISOString().slice(0, 10),
      fiscalPeriod: "TTM",
      currency: financialData?.financialCurrency ?? null,
      revenue: financialData?.totalRevenue ?? null,
      grossProfit: financialData?.grossProfits ?? null,
      operatingIncome: null,
      netIncome: defaultKeyStatistics?.netIncomeToCommon ?? null,
      earningsPerShare: defaultKeyStatistics?.trailingEps ?? null,
      totalAssets: null,
      totalLiabilities: null,
      shareholdersEquity: null,
      // financialData's totalCash counts short-term investments too: not the same figure.
      cashAndEquivalents: null,
    },
    ratios: {
      marketCap: summaryDetail?.marketCap ?? null,
      priceToEarnings: summaryDetail?.trailingPE ?? null,
      priceToBook: defaultKeyStatistics?.priceToBook ?? null,
      priceToSales: summaryDetail?.priceToSalesTrailing12Months ?? null,
      grossMargin: financialData?.grossMargins ?? null,
      operatingMargin: financialData?.operatingMargins ?? null,
      netMargin: financialData?.profitMargins ?? null,
      returnOnEquity: financialData?.returnOnEquity ?? null,
      // Yahoo gives a percentage (152 for 1.52), as openbb-fundamentals.ts notes; the ratio is asked.
      debtToEquity:
        financialData?.debtToEquity == null ? null : Math.round(financialData.debtToEquity * 100) / 10_000,
      currentRatio: financialData?.currentRatio ?? null,
    },
  };
}
