/**
 * @module Fundamentals through a deployment's OpenBB Platform API: four OBBjects, `{results: [...]}` each,
 * from `GET /api/v1/equity/profile` (openbb_core's EquityInfo: `name`, `sector`, `industry_category`,
 * `stock_exchange`, `employees`, `company_url`), `/api/v1/equity/fundamental/income` and `/balance`
 * (`period=annual|quarter&limit=1`; the data providers' models take `quarter`, not `quarterly`) and
 * `/api/v1/equity/fundamental/metrics`. Past the standard models' few fields, each data provider names
 * its figures itself, so each of ours is read from the names the OpenBB source documents for fmp
 * (openbb_fmp/models/income_statement.py, balance_sheet.py, key_metrics.py) and for yfinance
 * (openbb_yfinance/models/income_statement.py and balance_sheet.py, whose rows are Yahoo's line items in
 * snake case, and key_metrics.py); a figure under any other name is left null, never guessed.
 */
import type { ToolContext } from "toolreg/toolkit";
import { z } from "zod";
import type { Fundamentals, Period } from "./finance-provider.js";

const num = z.number().nullish();
const text = z.string().nullish();

const ProfileRow = z.object({
  symbol: z.string(),
  name: text,
  sector: text,
  industry_category: text,
  stock_exchange: text,
  employees: num,
  company_url: text,
});
const IncomeRow = z.object({
  period_ending: text,
  fiscal_period: text,
  fiscal_year: num,
  // fmp: reported_currency, revenue, total_operating_income, consolidated_net_income and the margins;
  // yfinance: total_revenue, operating_income, net_income.
  reported_currency: text,
  revenue: num,
  total_revenue: num,
  gross_profit: num,
  total_operating_income: num,
  operating_income: num,
  consolidated_net_income: num,
  net_income: num,
  basic_earnings_per_share: num,
  gross_profit_margin: num,
  operating_income_margin: num,
  net_income_margin: num,
});
const BalanceRow = z.object({
  total_assets: num,
  // fmp: total_liabilities; yfinance: total_liabilities_net_minority_interest. Both send total_common_equity
  // (yfinance's model renames Yahoo's stockholders_equity to it).
  total_liabilities: num,
  total_liabilities_net_minority_interest: num,
  total_common_equity: num,
  cash_and_cash_equivalents: num,
});
const MetricsRow = z.object({
  // fmp, today (FMP's /stable key-metrics-ttm): market_cap, return_on_equity, current_ratio, and no P/E, P/B,
  // P/S or D/E; fmp on FMP's v3 API: price_to_book, price_to_sales, return_on_equity, debt_to_equity, and
  // before OpenBB renamed them pb_ratio, price_to_sales_ratio, roe. yfinance: pe_ratio, price_to_book, the
  // margins, return_on_equity, debt_to_equity.
  market_cap: num,
  pe_ratio: num,
  price_to_book: num,
  pb_ratio: num,
  price_to_sales: num,
  price_to_sales_ratio: num,
  gross_margin: num,
  operating_margin: num,
  profit_margin: num,
  return_on_equity: num,
  roe: num,
  debt_to_equity: num,
  current_ratio: num,
});
const MetricsAnswer = z.object({ results: z.array(MetricsRow), provider: text });

/**
 * Debt to equity as a ratio. fmp's is one (debtToEquity, 1.52); yfinance passes on Yahoo's debtToEquity,
 * a percentage (152 for 1.52), untouched (openbb_yfinance/models/key_metrics.py normalizes only
 * dividend_yield_5y_avg). Another data provider's unit is not known: null.
 */
function debtToEquity(value: number | null | undefined, provider: string | null | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (provider === "fmp") return value;
  if (provider === "yfinance") return Math.round(value * 100) / 10_000;
  return null;
}

const answerOf = <T extends z.ZodType>(row: T) => z.object({ results: z.array(row) });
const ProfileAnswer = answerOf(ProfileRow);

/** One GET of the OpenBB API, its OBBject checked; undefined for its 204 (the data provider found nothing). */
export type OpenBBGet = <T>(
  path: string,
  query: Record<string, string>,
  schema: z.ZodType<T>,
  context: ToolContext,
) => Promise<T | undefined>;

/** The first of the values given, the names the data providers use for one figure, that is there. */
const first = <T>(...values: (T | null | undefined)[]): T | null =>
  values.find((value): value is T => value !== undefined && value !== null) ?? null;

export async function openbbFundamentals(
  get: OpenBBGet,
  symbol: string,
  period: Period,
  context: ToolContext,
): Promise<Fundamentals | undefined> {
  const profile = await get("/api/v1/equity/profile", { symbol }, ProfileAnswer, context);
  const company = profile?.results.find((row) => row.symbol.toUpperCase() === symbol);
  if (company === undefined) return undefined;
  const latest = { symbol, period: period === "quarterly" ? "quarter" : "annual", limit: "1" };
  const income = await get("/api/v1/equity/fundamental/income", latest, answerOf(IncomeRow), context);
  const balance = await get("/api/v1/equity/fundamental/balance", latest, answerOf(BalanceRow), context);
  // The metrics take no period with every data provider (yfinance's are today's): the latest row is read.
  const metrics = await get("/api/v1/equity/fundamental/metrics", { symbol }, MetricsAnswer, context);
  const statement = income?.results[0];
  const sheet = balance?.results[0];
  const ratio = metrics?.results[0];
  const fiscalPeriod =
    statement?.fiscal_period && statement.fiscal_year
      ? `${statement.fiscal_year}-${statement.fiscal_period}`
      : (statement?.fiscal_period ?? null);
  return {
    symbol,
    period,
    company: {
      name: company.name ?? null,
      sector: company.sector ?? null,
      industry: company.industry_category ?? null,
      exchange: company.stock_exchange ?? null,
      employees: company.employees ?? null,
      website: company.company_url ?? null,
    },
    statement: {
      reportPeriod: statement?.period_ending ?? null,
      fiscalPeriod,
      currency: statement?.reported_currency ?? null,
      revenue: first(statement?.revenue, statement?.total_revenue),
      grossProfit: statement?.gross_profit ?? null,
      operatingIncome: first(statement?.total_operating_income, statement?.operating_income),
      netIncome: first(statement?.consolidated_net_income, statement?.net_income),
      earningsPerShare: statement?.basic_earnings_per_share ?? null,
      totalAssets: sheet?.total_assets ?? null,
      totalLiabilities: first(sheet?.total_liabilities, sheet?.total_liabilities_net_minority_interest),
      shareholdersEquity: sheet?.total_common_equity ?? null,
      cashAndEquivalents: sheet?.cash_and_cash_equivalents ?? null,
    },
    ratios: {
      marketCap: ratio?.market_cap ?? null,
      priceToEarnings: ratio?.pe_ratio ?? null,
      priceToBook: first(ratio?.price_to_book, ratio?.pb_ratio),
      priceToSales: first(ratio?.price_to_sales, ratio?.price_to_sales_ratio),
      grossMargin: first(ratio?.gross_margin, statement?.gross_profit_margin),
      operatingMargin: first(ratio?.operating_margin, statement?.operating_income_margin),
      netMargin: first(ratio?.profit_margin, statement?.net_income_margin),
      returnOnEquity: first(ratio?.return_on_equity, ratio?.roe),
      debtToEquity: debtToEquity(ratio?.debt_to_equity, metrics?.provider),
      currentRatio: ratio?.current_ratio ?? null,
    },
  };
}
