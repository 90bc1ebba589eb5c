import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FinanceHarness, startFinanceHarness } from "./fake/finance-harness.js";
import { OPENBB_BASIC, type OpenBBScenario } from "./fake/openbb-fake.js";

let fmp: FinanceHarness<OpenBBScenario>;
let yahoo: FinanceHarness<OpenBBScenario>;
beforeAll(async () => {
  fmp = await startFinanceHarness("openbb", { openbbProvider: "fmp" });
  yahoo = await startFinanceHarness("openbb", { openbbProvider: "yfinance" });
});
afterAll(async () => {
  await fmp.close();
  await yahoo.close();
});

const fundamentals = (harness: FinanceHarness<OpenBBScenario>, input: object) =>
  harness.call("stock_fundamentals", input, OPENBB_BASIC);

describe("stock_fundamentals through a deployment's OpenBB API", () => {
  it("reads the profile, the latest statements of the period asked (as `quarter`) and the metrics from fmp's current names", async () => {
    const before = fmp.fake.requests.length;
    const result = await fundamentals(fmp, { symbol: "aapl", period: "quarterly" });
    if (!result.ok) throw new Error(result.error.message);
    const sent = fmp.fake.requests.slice(before);
    expect(sent.map((request) => request.path)).toEqual([
      "/api/v1/equity/profile",
      "/api/v1/equity/fundamental/income",
      "/api/v1/equity/fundamental/balance",
      "/api/v1/equity/fundamental/metrics",
    ]);
    expect(sent[1]?.query).toEqual({ symbol: "AAPL", period: "quarter", limit: "1", provider: "fmp" });
    expect(sent[3]?.query).toEqual({ symbol: "AAPL", provider: "fmp" });
    expect(sent.every((request) => request.headers.authorization === `Basic ${OPENBB_BASIC}`)).toBe(true);
    expect(result.data).toEqual({
      provider: "openbb",
      symbol: "AAPL",
      period: "quarterly",
      company: {
        name: "Apple Inc.",
        sector: "Technology",
        industry: "Consumer Electronics",
        exchange: "NASDAQ",
        employees: 164000,
        website: "https://www.apple.com",
      },
      statement: {
        reportPeriod: "2026-09-26",
        fiscalPeriod: "2026-Q4",
        currency: "USD",
        revenue: 102_000_000_000,
        grossProfit: 48_000_000_000,
        operatingIncome: 32_000_000_000,
        netIncome: 27_500_000_000,
        earningsPerShare: 1.85,
        totalAssets: 359_000_000_000,
        totalLiabilities: 285_000_000_000,
        shareholdersEquity: 74_000_000_000,
        cashAndEquivalents: 35_900_000_000,
      },
      ratios: {
        marketCap: 2_950_000_000_000,
        // FMP's /stable key metrics carry no P/E, P/B, P/S or debt to equity: absent, not derived.
        priceToEarnings: null,
        priceToBook: null,
        priceToSales: null,
        // fmp's margins come with its income statement.
        grossMargin: 0.47,
        operatingMargin: 0.314,
        netMargin: 0.27,
        returnOnEquity: 1.51,
        debtToEquity: null,
        currentRatio: 0.89,
      },
    });
    expect(result.provenance).toEqual({ source: `${fmp.fake.url}/api/v1/equity`, trusted: false });
    expect(result.content).toContain("revenue: 102000000000");
    expect(result.content).not.toContain("priceToEarnings");
  });

  // fmp-v3-metrics: price_to_book, price_to_sales, return_on_equity; fmp-v3-early-metrics: pb_ratio,
  // price_to_sales_ratio, roe.
  it.each(["fmp-v3-metrics", "fmp-v3-early-metrics"] as const)(
    "reads the metrics of fmp's earlier models (%s), debt to equity a ratio already",
    async (scenario) => {
      // One scenario for each of the four requests: only the metrics differ between the versions.
      for (let request = 0; request < 4; request += 1) fmp.fake.next(scenario);
      const result = await fundamentals(fmp, { symbol: "AAPL" });
      if (!result.ok) throw new Error(result.error.message);
      expect((result.data as { ratios: unknown }).ratios).toEqual({
        marketCap: 2_950_000_000_000,
        priceToEarnings: null,
        priceToBook: 39.9,
        priceToSales: 7.09,
        grossMargin: 0.469,
        operatingMargin: 0.32,
        netMargin: 0.269,
        returnOnEquity: 1.51,
        debtToEquity: 1.52,
        currentRatio: 0.89,
      });
    },
  );

  it("reads yfinance's names for the same figures, and asks the annual statement by default", async () => {
    const result = await fundamentals(yahoo, { symbol: "AAPL" });
    if (!result.ok) throw new Error(result.error.message);
    expect(yahoo.fake.requests.at(-2)?.query.period).toBe("annual");
    expect(result.data).toMatchObject({
      statement: {
        fiscalPeriod: null,
        currency: null,
        revenue: 416_000_000_000,
        operatingIncome: 133_000_000_000,
        netIncome: 112_000_000_000,
        earningsPerShare: 7.49,
        totalLiabilities: 285_000_000_000,
        shareholdersEquity: 74_000_000_000,
      },
    });
    expect((result.data as { ratios: unknown }).ratios).toEqual({
      marketCap: 2_950_000_000_000,
      priceToEarnings: 39.4,
      priceToBook: 39.9,
      priceToSales: null,
      grossMargin: 0.469,
      operatingMargin: 0.32,
      netMargin: 0.269,
      returnOnEquity: 1.51,
      // Yahoo's 152 (a percentage) as the ratio fmp gives.
      debtToEquity: 1.52,
      currentRatio: 0.89,
    });
  });

  it("leaves the figures null when the data provider has no statements (204), and calls a symbol without a profile unknown", async () => {
    const fund = await fundamentals(fmp, { symbol: "SPY" });
    if (!fund.ok) throw new Error(fund.error.message);
    expect(fund.data).toMatchObject({
      company: { name: "SPDR S&P 500 ETF Trust", sector: null, employees: null },
      statement: { revenue: null, totalAssets: null },
      ratios: { marketCap: null, debtToEquity: null },
    });
    const before = fmp.fake.requests.length;
    const unknown = await fundamentals(fmp, { symbol: "ZZZZ" });
    if (unknown.ok) throw new Error("expected a failure");
    expect(unknown.error.code).toBe("invalid_input");
    expect(unknown.error.message).toContain("ZZZZ");
    // Nothing more is asked about a company the profile does not know.
    expect(fmp.fake.requests.length).toBe(before + 1);
  });

  it("reports a refused credential, the data provider's refusal, a 500, a 429 with and without Retry-After, a page and a malformed answer", async () => {
    const refused = await fmp.call("stock_fundamentals", { symbol: "AAPL" }, "wrong");
    if (refused.ok) throw new Error("expected a failure");
    expect(refused.error).toMatchObject({ code: "auth_required", details: { status: 401 } });
    const expectations: [OpenBBScenario, (error: Record<string, unknown>) => void][] = [
      [
        "provider-error",
        (error) => expect(error).toMatchObject({ code: "upstream_error", retryable: false }),
      ],
      ["unexpected", (error) => expect(error).toMatchObject({ code: "upstream_error", retryable: true })],
      ["rate-limited", (error) => expect(error).toMatchObject({ code: "upstream_rate_limited" })],
      ["rate-limited-retry-after", (error) => expect(error).toMatchObject({ retryAfterMs: 7000 })],
      ["not-json", (error) => expect(error).toMatchObject({ code: "upstream_error", retryable: false })],
      ["wrong-shape", (error) => expect(String(error.message)).toContain("results.0.employees")],
    ];
    for (const [scenario, check] of expectations) {
      fmp.fake.next(scenario);
      const result = await fundamentals(fmp, { symbol: "AAPL" });
      if (result.ok) throw new Error(`expected a failure for ${scenario}`);
      check(result.error as unknown as Record<string, unknown>);
    }
  });
});
