/**
 * @module `stock_fundamentals`: one company's facts, its latest annual or quarterly statement's headline
 * figures and its ratios, from a provider that has them. A provider that cannot fails with
 * precondition_failed, rather than the tool vanishing unexplained.
 */
import { oneLine, ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { financeTool } from "./finance-env.js";
import { SymbolSchema } from "./finance-input.js";
import { type Fundamentals, PERIODS } from "./finance-provider.js";

const nullableNumber = z.number().nullable();
const nullableText = z.string().nullable();

export const stockFundamentals = financeTool({
  name: "stock_fundamentals",
  description:
    "Gets one company's fundamentals by ticker symbol: company facts (name, sector, industry, exchange, employees, website), the latest annual or quarterly statement's figures (revenue, gross profit, operating and net income, EPS, assets, liabilities, equity, cash) and ratios (market cap, P/E, P/B, P/S, margins, return on equity, debt to equity, current ratio). Use stock_quote for the current price. Figures are the provider's data.",
  category: "finance",
  effect: "read",
  approval: "never",
  cost: "io",
  input: z.strictObject({
    symbol: SymbolSchema,
    period: z
      .enum(PERIODS)
      .default("annual")
      .describe("which statement: the latest annual (default) or the latest quarterly"),
  }),
  output: z.object({
    provider: z.string(),
    symbol: z.string(),
    period: z.enum(PERIODS),
    company: z.object({
      name: nullableText,
      sector: nullableText,
      industry: nullableText,
      exchange: nullableText,
      employees: nullableNumber,
      website: nullableText,
    }),
    statement: z.object({
      reportPeriod: nullableText,
      fiscalPeriod: nullableText,
      currency: nullableText,
      revenue: nullableNumber,
      grossProfit: nullableNumber,
      operatingIncome: nullableNumber,
      netIncome: nullableNumber,
      earningsPerShare: nullableNumber,
      totalAssets: nullableNumber,
      totalLiabilities: nullableNumber,
      shareholdersEquity: nullableNumber,
      cashAndEquivalents: nullableNumber,
    }),
    ratios: z.object({
      marketCap: nullableNumber,
      priceToEarnings: nullableNumber,
      priceToBook: nullableNumber,
      priceToSales: nullableNumber,
      grossMargin: nullableNumber,
      operatingMargin: nullableNumber,
      netMargin: nullableNumber,
      returnOnEquity: nullableNumber,
      debtToEquity: nullableNumber,
      currentRatio: nullableNumber,
    }),
  }),
  async run({ symbol, period }, context, { provider }) {
    if (provider.fundamentals === undefined || !provider.supports.includes("stock_fundamentals")) {
      throw new ToolFailure(
        "precondition_failed",
        `stock_fundamentals is not available from ${provider.label}, this deployment's finance provider (it serves quotes only); the deployment can configure a provider that serves them. Use stock_quote for prices`,
      );
    }
    const found = await provider.fundamentals(symbol, period, context);
    if (found === undefined) {
      throw new ToolFailure(
        "invalid_input",
        `${provider.label} has no company with the ticker ${symbol}; check the symbol (for a US listing, without an exchange suffix)`,
      );
    }
    return {
      content: renderFundamentals(provider.label, found),
      data: { provider: provider.name, ...found },
      provenance: { source: provider.endpoint, trusted: false },
    };
  },
});

function renderFundamentals(label: string, found: Fundamentals): string {
  const pairs = (record: object) =>
    Object.entries(record)
      .filter(([, value]) => value !== null)
      .map(([key, value]) => `  ${key}: ${typeof value === "string" ? oneLine(value, 300) : value}`);
  return [
    `${label} fundamentals for ${found.symbol} (${found.period}):`,
    "Company:",
    ...pairs(found.company),
    `Latest ${found.period} statement:`,
    ...pairs(found.statement),
    "Ratios:",
    ...pairs(found.ratios),
  ].join("\n");
}
