import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FinanceHarness, startFinanceHarness } from "./fake/finance-harness.js";
import type { FinancialDatasetsScenario } from "./fake/financial-datasets-fake.js";

let fd: FinanceHarness<FinancialDatasetsScenario>;
beforeAll(async () => {
  fd = await startFinanceHarness("financial-datasets");
});
afterAll(() => fd.close());

describe("stock_fundamentals through Financial Datasets", () => {
  it("reads the facts, the latest statement of the period asked and the ratios, with the key injected", async () => {
    const before = fd.fake.requests.length;
    const result = await fd.call("stock_fundamentals", { symbol: "aapl", period: "quarterly" });
    if (!result.ok) throw new Error(result.error.message);
    const sent = fd.fake.requests.slice(before);
    expect(sent.map((request) => request.path)).toEqual([
      "/company/facts",
      "/financials/income-statements",
      "/financials/balance-sheets",
      "/financial-metrics",
    ]);
    expect(sent[1]?.query).toEqual({ ticker: "AAPL", period: "quarterly", limit: "1" });
    expect(sent.every((request) => request.headers["x-api-key"] === "fd-test-key")).toBe(true);
    expect(result.data).toMatchObject({
      provider: "financial-datasets",
      symbol: "AAPL",
      period: "quarterly",
      company: { name: "Apple Inc", sector: "Information Technology", employees: 164000 },
      statement: { fiscalPeriod: "2026-Q4", revenue: 102_000_000_000, earningsPerShare: 7.46 },
      ratios: { priceToEarnings: 26.2, currentRatio: 0.89 },
    });
    expect(result.provenance).toEqual({ source: fd.fake.url, trusted: false });
    expect(result.content).toContain("revenue: 102000000000");
  });

  it("defaults to the annual statement", async () => {
    const result = await fd.call("stock_fundamentals", { symbol: "AAPL" });
    expect(result.ok).toBe(true);
    expect(fd.fake.requests.at(-1)?.query.period).toBe("annual");
  });

  it("says a ticker it does not cover is unknown, as invalid_input", async () => {
    const result = await fd.call("stock_fundamentals", { symbol: "ZZZZ" });
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toContain("ZZZZ");
  });

  it("refuses a hostile symbol and an unknown period before any request", async () => {
    const before = fd.fake.requests.length;
    for (const input of [
      { symbol: "AAPL&ticker=MSFT" },
      { symbol: "AAPL", period: "ttm" },
      { symbol: "AAPL", limit: 100 },
    ]) {
      const result = await fd.call("stock_fundamentals", input);
      if (result.ok) throw new Error(`accepted ${JSON.stringify(input)}`);
      expect(result.error.code).toBe("invalid_input");
    }
    expect(fd.fake.requests.length).toBe(before);
  });

  it("fails the call, not to be retried, when the credits run out midway", async () => {
    fd.fake.next("credits-spent");
    const result = await fd.call("stock_fundamentals", { symbol: "AAPL" });
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.retryable).toBe(false);
    expect(result.error.details).toMatchObject({ status: 402, limit: "credits" });
  });
});
