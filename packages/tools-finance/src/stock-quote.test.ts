import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FinanceHarness, startFinanceHarness } from "./fake/finance-harness.js";
import type { FinancialDatasetsScenario } from "./fake/financial-datasets-fake.js";
import { MARKET_TIME, type YahooScenario } from "./fake/yahoo-fake.js";

interface Quoted {
  provider: string;
  quotes: { symbol: string; price: number; change: number | null; changePercent: number | null }[];
  notFound: string[];
}

describe("stock_quote through yfinance", () => {
  let yahoo: FinanceHarness<YahooScenario>;
  beforeAll(async () => {
    yahoo = await startFinanceHarness("yfinance", { maxSymbols: 3 });
  });
  afterAll(() => yahoo.close());

  it("GETs the chart endpoint per symbol with no key and returns the price, change, currency, exchange and time", async () => {
    const before = yahoo.fake.requests.length;
    const result = await yahoo.call("stock_quote", { symbols: ["aapl", "^GSPC", "NOPE"] });
    if (!result.ok) throw new Error(result.error.message);
    const sent = yahoo.fake.requests.slice(before);
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /v8/finance/chart/AAPL",
      "GET /v8/finance/chart/%5EGSPC",
      "GET /v8/finance/chart/NOPE",
    ]);
    expect(sent[0]?.query).toEqual({ range: "1d", interval: "1d" });
    expect(sent[0]?.headers["x-api-key"]).toBeUndefined();
    const data = result.data as Quoted;
    expect(data.provider).toBe("yfinance");
    expect(data.notFound).toEqual(["NOPE"]);
    expect(data.quotes[0]).toEqual({
      symbol: "AAPL",
      name: "Apple Inc.",
      price: 195.5,
      change: 2.25,
      changePercent: 1.1643,
      previousClose: 193.25,
      currency: "USD",
      exchange: "NasdaqGS",
      marketTime: new Date(MARKET_TIME * 1000).toISOString(),
    });
    expect(data.quotes[1]).toMatchObject({ symbol: "^GSPC", change: -50, previousClose: 6050 });
    expect(result.provenance).toEqual({
      source: `${yahoo.fake.url}/v8/finance/chart`,
      trusted: false,
    });
    expect(result.content).toContain("AAPL (Apple Inc.): 195.5 USD +2.25 (+1.1643%)");
    expect(result.content).toContain("Not found at Yahoo Finance: NOPE");
  });

  it("refuses hostile or malformed symbols and more symbols than the deployment allows, before any request", async () => {
    const before = yahoo.fake.requests.length;
    for (const symbols of [
      ["AAPL/../../v7"],
      ["AAPL?x=1"],
      ["AA PL"],
      [""],
      ["...."],
      ["ABCDEFGHIJKLMNOP"],
      [],
      ["A", "B", "C", "D"],
    ]) {
      const result = await yahoo.call("stock_quote", { symbols });
      expect(result.ok, JSON.stringify(symbols)).toBe(false);
      if (!result.ok) expect(result.error.code).toBe("invalid_input");
    }
    const extra = await yahoo.call("stock_quote", { symbols: ["AAPL"], region: "US" });
    expect(extra.ok).toBe(false);
    expect(yahoo.fake.requests.length).toBe(before);
  });

  it("turns a 429 into upstream_rate_limited, with the wait when Retry-After gives one", async () => {
    yahoo.fake.next("rate-limited");
    const plain = await yahoo.call("stock_quote", { symbols: ["AAPL"] });
    if (plain.ok) throw new Error("expected a failure");
    expect(plain.error.code).toBe("upstream_rate_limited");
    expect(plain.error.retryable).toBe(true);
    expect(plain.error.retryAfterMs).toBeUndefined();
    expect(plain.error.message).toContain("refuses automated clients");
    yahoo.fake.next("rate-limited-retry-after");
    const timed = await yahoo.call("stock_quote", { symbols: ["AAPL"] });
    if (timed.ok) throw new Error("expected a failure");
    expect(timed.error.code).toBe("upstream_rate_limited");
    expect(timed.error.retryAfterMs).toBe(30_000);
  });

  it("says so when the answer is not Yahoo's JSON or not its documented shape", async () => {
    yahoo.fake.next("not-json");
    const page = await yahoo.call("stock_quote", { symbols: ["AAPL"] });
    if (page.ok) throw new Error("expected a failure");
    expect(page.error.code).toBe("upstream_error");
    expect(page.error.message).toContain("something other than its JSON");
    yahoo.fake.next("wrong-shape");
    const shape = await yahoo.call("stock_quote", { symbols: ["AAPL"] });
    if (shape.ok) throw new Error("expected a failure");
    expect(shape.error.code).toBe("upstream_error");
    expect(shape.error.message).toContain("regularMarketPrice");
  });

  it("stock_fundamentals fails with precondition_failed naming the provider that has them", async () => {
    const before = yahoo.fake.requests.length;
    const result = await yahoo.call("stock_fundamentals", { symbol: "AAPL" });
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("precondition_failed");
    expect(result.error.message).toContain("financial-datasets");
    expect(yahoo.fake.requests.length).toBe(before);
  });
});

describe("stock_quote through Financial Datasets", () => {
  let fd: FinanceHarness<FinancialDatasetsScenario>;
  beforeAll(async () => {
    fd = await startFinanceHarness("financial-datasets");
  });
  afterAll(() => fd.close());

  it("GETs /prices/snapshot with the key egress injected in X-API-KEY", async () => {
    const result = await fd.call("stock_quote", { symbols: ["AAPL", "ZZZZ"] });
    if (!result.ok) throw new Error(result.error.message);
    const [first] = fd.fake.requests.slice(-2);
    expect(first?.path).toBe("/prices/snapshot");
    expect(first?.query).toEqual({ ticker: "AAPL" });
    expect(first?.headers["x-api-key"]).toBe("fd-test-key");
    const data = result.data as Quoted;
    expect(data.quotes).toEqual([
      {
        symbol: "AAPL",
        name: null,
        price: 195.5,
        change: 2.25,
        changePercent: 1.1643,
        previousClose: 193.25,
        currency: "USD",
        exchange: null,
        marketTime: "2026-12-05T21:00:00Z",
      },
    ]);
    expect(data.notFound).toEqual(["ZZZZ"]);
    expect(result.provenance?.trusted).toBe(false);
  });

  it("reports a refused key (401) as auth_required, naming the credential to fix", async () => {
    const result = await fd.call("stock_quote", { symbols: ["AAPL"] }, "wrong-key");
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("auth_required");
    expect(result.error.retryable).toBe(false);
    expect(result.error.details).toMatchObject({ credentialRef: "financial-datasets", status: 401 });
  });

  it("tells a spent credit balance (402) and a rate limit (429, with and without Retry-After) apart", async () => {
    fd.fake.next("credits-spent");
    const spent = await fd.call("stock_quote", { symbols: ["AAPL"] });
    if (spent.ok) throw new Error("expected a failure");
    expect(spent.error.code).toBe("upstream_rate_limited");
    expect(spent.error.details).toMatchObject({ status: 402, limit: "quota" });
    expect(spent.error.message).toContain("Insufficient credits");
    fd.fake.next("rate-limited");
    const rate = await fd.call("stock_quote", { symbols: ["AAPL"] });
    if (rate.ok) throw new Error("expected a failure");
    expect(rate.error.details).toMatchObject({ status: 429, limit: "rate" });
    expect(rate.error.retryAfterMs).toBeUndefined();
    fd.fake.next("rate-limited-retry-after");
    const timed = await fd.call("stock_quote", { symbols: ["AAPL"] });
    if (timed.ok) throw new Error("expected a failure");
    expect(timed.error.retryAfterMs).toBe(12_000);
  });

  it("refuses a malformed answer", async () => {
    fd.fake.next("wrong-shape");
    const result = await fd.call("stock_quote", { symbols: ["AAPL"] });
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.message).toContain("snapshot.price");
  });
});
