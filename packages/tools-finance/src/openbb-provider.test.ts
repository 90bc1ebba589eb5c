import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FinanceHarness, startFinanceHarness } from "./fake/finance-harness.js";
import { OPENBB_BASIC, type OpenBBScenario } from "./fake/openbb-fake.js";
import { financeToolkit } from "./toolkit.js";

let openbb: FinanceHarness<OpenBBScenario>;
beforeAll(async () => {
  openbb = await startFinanceHarness("openbb", { openbbProvider: "fmp" });
});
afterAll(() => openbb.close());

describe("stock_quote through a deployment's OpenBB API", () => {
  it("GETs /api/v1/equity/price/quote with the data provider and basic auth, and reads the OBBject", async () => {
    const result = await openbb.call("stock_quote", { symbols: ["AAPL", "NOPE"] }, OPENBB_BASIC);
    if (!result.ok) throw new Error(result.error.message);
    const [first] = openbb.fake.requests.slice(-2);
    expect(first?.path).toBe("/api/v1/equity/price/quote");
    expect(first?.query).toEqual({ symbol: "AAPL", provider: "fmp" });
    expect(first?.headers.authorization).toBe(`Basic ${OPENBB_BASIC}`);
    expect(result.data).toEqual({
      provider: "openbb",
      quotes: [
        {
          symbol: "AAPL",
          name: "Apple Inc.",
          price: 195.5,
          change: 2.25,
          // OpenBB's change_percent is a fraction: 0.011643 is 1.1643 %.
          changePercent: 1.1643,
          previousClose: 193.25,
          currency: "USD",
          exchange: "NMS",
          marketTime: "2026-12-05T16:00:00-05:00",
        },
      ],
      // 204, no body: the data provider found nothing.
      notFound: ["NOPE"],
    });
    expect(result.provenance).toEqual({
      source: `${openbb.fake.url}/api/v1/equity`,
      trusted: false,
    });
  });

  it("reports a refused basic-auth credential as auth_required, and the data provider's refusal (400) as final", async () => {
    const refused = await openbb.call("stock_quote", { symbols: ["AAPL"] }, "wrong");
    if (refused.ok) throw new Error("expected a failure");
    expect(refused.error).toMatchObject({ code: "auth_required", details: { status: 401 } });
    openbb.fake.next("provider-error");
    const provider = await openbb.call("stock_quote", { symbols: ["AAPL"] }, OPENBB_BASIC);
    if (provider.ok) throw new Error("expected a failure");
    expect(provider.error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(provider.error.message).toContain("Missing credential 'fmp_api_key'");
  });

  it("says so for a 500, a 429 with and without Retry-After, a page and a malformed answer", async () => {
    openbb.fake.next("unexpected");
    const crashed = await openbb.call("stock_quote", { symbols: ["AAPL"] }, OPENBB_BASIC);
    if (crashed.ok) throw new Error("expected a failure");
    expect(crashed.error).toMatchObject({ code: "upstream_error", retryable: true });
    openbb.fake.next("rate-limited");
    const plain = await openbb.call("stock_quote", { symbols: ["AAPL"] }, OPENBB_BASIC);
    if (plain.ok) throw new Error("expected a failure");
    expect(plain.error.code).toBe("upstream_rate_limited");
    expect(plain.error.retryAfterMs).toBeUndefined();
    openbb.fake.next("rate-limited-retry-after");
    const timed = await openbb.call("stock_quote", { symbols: ["AAPL"] }, OPENBB_BASIC);
    if (timed.ok) throw new Error("expected a failure");
    expect(timed.error.retryAfterMs).toBe(7000);
    openbb.fake.next("not-json");
    const page = await openbb.call("stock_quote", { symbols: ["AAPL"] }, OPENBB_BASIC);
    if (page.ok) throw new Error("expected a failure");
    expect(page.error.code).toBe("upstream_error");
    openbb.fake.next("wrong-shape");
    const shape = await openbb.call("stock_quote", { symbols: ["AAPL"] }, OPENBB_BASIC);
    if (shape.ok) throw new Error("expected a failure");
    expect(shape.error.message).toContain("results.0.last_price");
  });

  it("needs the deployment's baseUrl, and takes an openbbProvider only for openbb", () => {
    expect(() => financeToolkit.parseConfig({ provider: "openbb" })).toThrow(/baseUrl/);
    expect(() => financeToolkit.parseConfig({ provider: "yfinance", openbbProvider: "fmp" })).toThrow(
      /openbbProvider/,
    );
    expect(() =>
      financeToolkit.parseConfig({
        provider: "openbb",
        baseUrl: "http://openbb:6900",
        openbbProvider: "fmp&x=1",
      }),
    ).toThrow(/openbbProvider/);
    expect(financeToolkit.parseConfig({ provider: "openbb", baseUrl: "http://openbb:6900" })).toMatchObject({
      provider: "openbb",
    });
  });
});
