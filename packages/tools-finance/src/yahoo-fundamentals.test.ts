import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FinanceHarness, startFinanceHarness } from "./fake/finance-harness.js";
import type { YahooScenario } from "./fake/yahoo-fake.js";

let yahoo: FinanceHarness<YahooScenario>;
beforeAll(async () => {
  yahoo = await startFinanceHarness("yfinance");
});
afterAll(() => yahoo.close());

/** The paths of the requests made since `before`. */
const pathsSince = (before: number) => yahoo.fake.requests.slice(before).map((request) => request.path);

describe("stock_fundamentals through yfinance", () => {
  it("opens a session (cookie, then crumb with it), reads quoteSummary with both, and keeps the crumb", async () => {
    const before = yahoo.fake.requests.length;
    const result = await yahoo.call("stock_fundamentals", { symbol: "aapl", period: "quarterly" });
    if (!result.ok) throw new Error(result.error.message);
    expect(pathsSince(before)).toEqual(["/", "/v1/test/getcrumb", "/v10/finance/quoteSummary/AAPL"]);
    const [, crumb, summary] = yahoo.fake.requests.slice(before);
    expect(crumb?.headers.cookie).toMatch(/^A3=d=AQABBFAKE\d+&S=AQAAAFAKE$/);
    expect(summary?.headers.cookie).toBe(crumb?.headers.cookie);
    expect(summary?.query).toMatchObject({
      modules: "financialData,quoteType,defaultKeyStatistics,assetProfile,summaryDetail",
      crumb: expect.stringMatching(/^Fake\.Crumb\d+$/),
    });
    expect(result.data).toEqual({
      provider: "yfinance",
      symbol: "AAPL",
      period: "quarterly",
      company: {
        name: "Apple Inc.",
        sector: "Technology",
        industry: "Consumer Electronics",
        exchange: "NMS",
        employees: 164_000,
        website: "https://www.apple.com",
      },
      statement: {
        reportPeriod: "2025-09-27",
        fiscalPeriod: "TTM",
        currency: "USD",
        revenue: 416_161_000_000,
        grossProfit: 195_201_000_000,
        operatingIncome: null,
        netIncome: 112_010_000_000,
        earningsPerShare: 7.46,
        totalAssets: null,
        totalLiabilities: null,
        shareholdersEquity: null,
        cashAndEquivalents: null,
      },
      ratios: {
        marketCap: 4_020_000_000_000,
        priceToEarnings: 36.2,
        priceToBook: 52.41,
        priceToSales: 9.66,
        grossMargin: 0.46906,
        operatingMargin: 0.31647,
        netMargin: 0.26915,
        returnOnEquity: 1.71422,
        debtToEquity: 1.5241,
        currentRatio: 0.893,
      },
    });
    expect(result.provenance).toEqual({ source: `${yahoo.fake.url}/v8/finance/chart`, trusted: false });

    const again = yahoo.fake.requests.length;
    expect((await yahoo.call("stock_fundamentals", { symbol: "AAPL" })).ok).toBe(true);
    expect(pathsSince(again)).toEqual(["/v10/finance/quoteSummary/AAPL"]);
  });

  it("maps what Yahoo does not give to null", async () => {
    const result = await yahoo.call("stock_fundamentals", { symbol: "^GSPC" });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.data).toMatchObject({
      company: { name: "S&P 500", sector: null, employees: null },
      statement: { revenue: null, reportPeriod: null },
      ratios: { marketCap: null, debtToEquity: null },
    });
  });

  it("renews a stale session once: a new cookie and crumb, and the request again", async () => {
    await yahoo.call("stock_fundamentals", { symbol: "AAPL" });
    const before = yahoo.fake.requests.length;
    yahoo.fake.next("crumb-expired");
    const result = await yahoo.call("stock_fundamentals", { symbol: "AAPL" });
    expect(result.ok).toBe(true);
    expect(pathsSince(before)).toEqual([
      "/v10/finance/quoteSummary/AAPL",
      "/",
      "/v1/test/getcrumb",
      "/v10/finance/quoteSummary/AAPL",
    ]);
  });

  it("renews it only once: a second Invalid Crumb fails the call", async () => {
    await yahoo.call("stock_fundamentals", { symbol: "AAPL" });
    const before = yahoo.fake.requests.length;
    yahoo.fake.next("crumb-stale-twice");
    const result = await yahoo.call("stock_fundamentals", { symbol: "AAPL" });
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.details).toMatchObject({ status: 401 });
    expect(result.error.message).toContain("Invalid Crumb");
    expect(pathsSince(before)).toEqual([
      "/v10/finance/quoteSummary/AAPL",
      "/",
      "/v1/test/getcrumb",
      "/v10/finance/quoteSummary/AAPL",
    ]);
  });

  it("says a symbol Yahoo does not know is unknown, as invalid_input", async () => {
    const result = await yahoo.call("stock_fundamentals", { symbol: "ZZZZ" });
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toContain("ZZZZ");
  });

  it("reads a 429 with Retry-After as a wait and without it as a refusal", async () => {
    await yahoo.call("stock_fundamentals", { symbol: "AAPL" });
    yahoo.fake.next("rate-limited-retry-after");
    const wait = await yahoo.call("stock_fundamentals", { symbol: "AAPL" });
    if (wait.ok) throw new Error("expected a failure");
    expect(wait.error).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(wait.error.details).toMatchObject({ limit: "rate" });
    yahoo.fake.next("rate-limited");
    const refused = await yahoo.call("stock_fundamentals", { symbol: "AAPL" });
    if (refused.ok) throw new Error("expected a failure");
    expect(refused.error).toMatchObject({ code: "upstream_rate_limited", retryable: false });
    expect(refused.error.details).toMatchObject({ limit: "refused" });
  });

  it("says so when the answer is not Yahoo's JSON or not its documented shape", async () => {
    await yahoo.call("stock_fundamentals", { symbol: "AAPL" });
    for (const scenario of ["not-json", "wrong-shape"] as const) {
      yahoo.fake.next(scenario);
      const result = await yahoo.call("stock_fundamentals", { symbol: "AAPL" });
      if (result.ok) throw new Error(`expected a failure for ${scenario}`);
      expect(result.error.code).toBe("upstream_error");
    }
  });
});

describe("the Yahoo fake's session", () => {
  it("refuses the crumb without the cookie, and quoteSummary without both", async () => {
    const crumb = await fetch(`${yahoo.fake.url}/v1/test/getcrumb`);
    expect(crumb.status).toBe(401);
    expect(await crumb.json()).toEqual({
      finance: { result: null, error: { code: "Unauthorized", description: "Invalid Cookie" } },
    });
    const summary = await fetch(`${yahoo.fake.url}/v10/finance/quoteSummary/AAPL?crumb=Fake.Crumb1`);
    expect(summary.status).toBe(401);
    expect(await summary.json()).toEqual({
      finance: { result: null, error: { code: "Unauthorized", description: "Invalid Crumb" } },
    });
  });
});
