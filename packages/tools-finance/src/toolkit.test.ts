import { createToolkitHost } from "toolreg/toolkit";
import { describe, expect, it } from "vitest";
import { financeToolkit } from "./toolkit.js";

describe("the finance toolkit", () => {
  it("declares both tools as read, never approved, in the finance category", () => {
    const tools = financeToolkit.declarations();
    expect(tools.map((tool) => tool.name)).toEqual(["stock_quote", "stock_fundamentals"]);
    for (const tool of tools) {
      expect(tool).toMatchObject({ category: "finance", effect: "read", approval: "never" });
    }
    expect(financeToolkit.hosts).toEqual([
      "query1.finance.yahoo.com",
      "fc.yahoo.com",
      "api.financialdatasets.ai",
    ]);
  });

  it("refuses a key for yfinance, a missing key for financial-datasets and a base URL carrying a secret", () => {
    expect(() => financeToolkit.parseConfig({ provider: "yfinance", credentialRef: "x" })).toThrow(
      /yfinance takes no API key/,
    );
    expect(() => financeToolkit.parseConfig({ provider: "financial-datasets" })).toThrow(/credentialRef/);
    expect(() =>
      financeToolkit.parseConfig({
        provider: "financial-datasets",
        credentialRef: "fd",
        baseUrl: "https://api.financialdatasets.ai/?apikey=secret",
      }),
    ).toThrow(/baseUrl/);
    expect(() => financeToolkit.parseConfig({ provider: "yfinance", maxSymbols: 26 })).toThrow(/maxSymbols/);
    expect(financeToolkit.parseConfig({ provider: "yfinance" })).toMatchObject({
      provider: "yfinance",
      maxSymbols: 10,
    });
  });

  it("has no default provider: Yahoo refuses most server clients, so keyless yfinance must be chosen", async () => {
    expect(() => financeToolkit.parseConfig({})).toThrow(/provider/);
    const host = createToolkitHost({});
    await expect(financeToolkit.build({}, host)).rejects.toThrow(/provider/);
    const tools = await financeToolkit.build({ provider: "yfinance" }, host);
    expect(tools.map((tool) => tool.name)).toEqual(["stock_quote", "stock_fundamentals"]);
    await host.close();
  });
});
