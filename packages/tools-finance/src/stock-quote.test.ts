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

  it("reads a 429 without Retry-After as Yahoo refusing the client (not retryable, pointing to financial-datasets and openbb), and one with it as a wait", async () => {
    yahoo.fake.next("rate-limited");
    const plain = await yahoo.call("stock_quote", { symbols: ["AAPL"] });
    if (plain.ok) throw new Error("expected a failure");
    expect(plain.error.code).toBe("upstream_rate_limited");
    expect(plain.error.retryable).toBe(false);
    expect(plain.error.retryAfterMs).toBeUndefined();
    expect(plain.error.message).toContain("refuses automated clients");
    expect(plain.error.message).toContain("configure the financial-datasets or openbb provider");
    yahoo.fake.next("rate-limited-retry-after");
    const timed = await yahoo.call("stock_quote", { symbols: ["AAPL"] });
    if (timed.ok) throw new Error("expected a failure");
    expect(timed.error.code).toBe("upstream_rate_limited");
    expect(timed.error.retryable).toBe(true);
    expect(timed.error.retryAfterMs).toBe(30_000);
  });

  it("says how Yahoo spells a share class beside a symbol it did not find, and quotes its spelling", async () => {
    const result = await yahoo.call("stock_quote", { symbols: ["BRK.B", "BRK-B"] });
    if (!result.ok) throw new Error(result.error.message);
    const data = result.data as Quoted;
    expect(data.notFound).toEqual(["BRK.B"]);
    expect(data.quotes.map((quote) => quote.symbol)).toEqual(["BRK-B"]);
    expect(result.content).toMatch(
      /Not found at Yahoo Finance: BRK\.B \(Yahoo spells a share class with a hyphen \(BRK-B/,
    );
  });

  it("renders a vendor's multi-line name on one line, so it cannot forge a line of the output", async () => {
    const result = await yahoo.call("stock_quote", { symbols: ["BRK-B"] });
    if (!result.ok) throw new Error(result.error.message);
    const lines = result.content
      .split("\n")
      .filter((line) => line.includes("Berkshire") || line.includes("Not found"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^BRK-B \(Berkshire Hathaway Inc\. Not found at Yahoo Finance: AAPL\): 480 USD/);
    expect((result.data as { quotes: { name: string }[] }).quotes[0]?.name).not.toContain("\n");
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

  it("tells a spent credit balance (402, final: waiting never restores credits) and a rate limit (429, with and without Retry-After) apart", async () => {
    fd.fake.next("credits-spent");
    const spent = await fd.call("stock_quote", { symbols: ["AAPL"] });
    if (spent.ok) throw new Error("expected a failure");
    expect(spent.error.code).toBe("upstream_error");
    expect(spent.error.retryable).toBe(false);
    expect(spent.error.retryAfterMs).toBeUndefined();
    expect(spent.error.details).toMatchObject({ status: 402, limit: "credits" });
    expect(spent.error.message).toContain("Insufficient credits");
    expect(spent.error.message).toContain("add credits");
    fd.fake.next("rate-limited");
    const rate = await fd.call("stock_quote", { symbols: ["AAPL"] });
    if (rate.ok) throw new Error("expected a failure");
    expect(rate.error.code).toBe("upstream_rate_limited");
    expect(rate.error.retryable).toBe(true);
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
