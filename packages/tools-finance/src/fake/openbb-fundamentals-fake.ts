/**
 * @module The fundamentals routes of the local OpenBB API, each an OBBject `{id, results, provider,
 * warnings, chart, extra}`. What they reproduce:
 * - `GET /api/v1/equity/profile?symbol=` with openbb_core's EquityInfo fields
 *   (openbb_platform/core/openbb_core/provider/standard_models/equity_info.py: `name`, `stock_exchange`,
 *   `sector`, `industry_category`, `employees`, `company_url`) and fmp's extras
 *   (openbb_platform/providers/fmp/openbb_fmp/models/equity_profile.py: `is_etf`, `currency`, `market_cap`);
 * - `/api/v1/equity/fundamental/income`, `/balance` (`period=annual|quarter`, `limit`) and `/metrics` rows
 *   under the names the data provider asked gives them. fmp's (openbb_platform/providers/fmp/openbb_fmp/
 *   models/income_statement.py; balance_sheet.py: `reported_currency`, `total_liabilities`,
 *   `total_common_equity`): its key_metrics.py today reads FMP's /stable/key-metrics-ttm
 *   (https://site.financialmodelingprep.com/developer/docs#key-metrics) into one TTM row with
 *   `market_cap`, `current_ratio`, `return_on_equity` and no P/B, P/S or debt to equity; the
 *   `fmp-v3-metrics` and `fmp-v3-early-metrics` scenarios answer as its two earlier versions did from FMP's
 *   v3 /key-metrics (https://site.financialmodelingprep.com/developer/docs/company-key-metrics-api/):
 *   `price_to_book`, `price_to_sales`, `return_on_equity`, `debt_to_equity`, and before that `pb_ratio`,
 *   `price_to_sales_ratio`, `roe`. yfinance's (openbb_yfinance/models/income_statement.py and
 *   balance_sheet.py, Yahoo's line items in snake case such as `total_revenue`, with `stockholders_equity`
 *   renamed `total_common_equity`; key_metrics.py: `pe_ratio`, `price_to_book`, `profit_margin`,
 *   `return_on_equity`, `debt_to_equity`);
 *   a `period` other than annual or quarter is the 422 of the data provider's Literal;
 * - 204 and no body (EmptyDataError, openbb_core/api/exception_handlers.py) for a symbol the data provider
 *   does not know, and for SPY's statements: a fund has a profile and no income statement.
 */
import type { FakeReply, SeenRequest } from "toolreg/test";

const PROFILE = {
  symbol: "AAPL",
  name: "Apple Inc.",
  stock_exchange: "NASDAQ",
  sector: "Technology",
  industry_category: "Consumer Electronics",
  employees: 164000,
  company_url: "https://www.apple.com",
  is_etf: false,
  currency: "USD",
  market_cap: 2_950_000_000_000,
};
const FUND_PROFILE = { symbol: "SPY", name: "SPDR S&P 500 ETF Trust", stock_exchange: "AMEX", is_etf: true };

const FMP = {
  income: (quarter: boolean) => ({
    period_ending: "2026-09-26",
    fiscal_period: quarter ? "Q4" : "FY",
    fiscal_year: 2026,
    reported_currency: "USD",
    revenue: quarter ? 102_000_000_000 : 416_000_000_000,
    gross_profit: quarter ? 48_000_000_000 : 195_000_000_000,
    gross_profit_margin: quarter ? 0.47 : 0.469,
    total_operating_income: quarter ? 32_000_000_000 : 133_000_000_000,
    operating_income_margin: quarter ? 0.314 : 0.32,
    consolidated_net_income: quarter ? 27_500_000_000 : 112_000_000_000,
    net_income_margin: quarter ? 0.27 : 0.269,
    basic_earnings_per_share: quarter ? 1.85 : 7.49,
    diluted_earnings_per_share: quarter ? 1.84 : 7.46,
  }),
  balance: {
    period_ending: "2026-09-26",
    fiscal_period: "FY",
    fiscal_year: 2026,
    reported_currency: "USD",
    total_assets: 359_000_000_000,
    total_liabilities: 285_000_000_000,
    total_common_equity: 74_000_000_000,
    cash_and_cash_equivalents: 35_900_000_000,
  },
  // The TTM row (the model's default `ttm=only`): key-metrics-ttm's figures, dated today, the currency
  // taken from key-metrics' reportedCurrency.
  metrics: {
    symbol: "AAPL",
    period_ending: "2026-12-07",
    fiscal_period: "TTM",
    fiscal_year: 2026,
    currency: "USD",
    market_cap: 2_950_000_000_000,
    enterprise_value: 2_990_000_000_000,
    ev_to_sales: 7.19,
    current_ratio: 0.89,
    return_on_equity: 1.51,
    return_on_invested_capital: 0.58,
  },
};
/** fmp's key metrics before FMP's /stable API: the latest fiscal year of v3 /key-metrics. */
const FMP_V3_METRICS = {
  symbol: "AAPL",
  period_ending: "2026-09-26",
  fiscal_period: "FY",
  calendar_year: 2026,
  market_cap: 2_950_000_000_000,
  price_to_book: 39.9,
  price_to_sales: 7.09,
  return_on_equity: 1.51,
  debt_to_equity: 1.52,
  current_ratio: 0.89,
};
/** The same row before OpenBB's model renamed FMP's pbRatio, priceToSalesRatio and roe. */
const FMP_V3_EARLY_METRICS = {
  symbol: "AAPL",
  period_ending: "2026-09-26",
  fiscal_period: "FY",
  fiscal_year: 2026,
  market_cap: 2_950_000_000_000,
  pb_ratio: 39.9,
  price_to_sales_ratio: 7.09,
  roe: 1.51,
  debt_to_equity: 1.52,
  current_ratio: 0.89,
};
/** Which of fmp's key-metrics models answers. */
export type FmpMetricsVersion = "stable" | "v3" | "v3-early";
const YFINANCE = {
  income: {
    period_ending: "2026-09-30",
    total_revenue: 416_000_000_000,
    gross_profit: 195_000_000_000,
    operating_income: 133_000_000_000,
    net_income: 112_000_000_000,
    basic_earnings_per_share: 7.49,
  },
  balance: {
    period_ending: "2026-09-30",
    total_assets: 359_000_000_000,
    total_liabilities_net_minority_interest: 285_000_000_000,
    total_common_equity: 74_000_000_000,
    cash_and_cash_equivalents: 35_900_000_000,
  },
  metrics: {
    symbol: "AAPL",
    market_cap: 2_950_000_000_000,
    pe_ratio: 39.4,
    price_to_book: 39.9,
    gross_margin: 0.469,
    operating_margin: 0.32,
    profit_margin: 0.269,
    return_on_equity: 1.51,
    // Yahoo gives debt to equity as a percentage (152 for 1.52); OpenBB passes it through.
    debt_to_equity: 152,
    current_ratio: 0.89,
  },
};

function obbject(request: SeenRequest, results: object[]): FakeReply {
  return {
    status: 200,
    body: {
      id: "06649f4e-896c-7b31-8000-52242b1605f3",
      results,
      provider: request.query.provider ?? "fmp",
      warnings: null,
      chart: null,
      extra: { metadata: {} },
    },
  };
}

/** The answer of a fundamentals route, or undefined when the path is none of them. */
export function fundamentalsReply(
  request: SeenRequest,
  fmpMetrics: FmpMetricsVersion = "stable",
): FakeReply | undefined {
  const { symbol, period } = request.query;
  const yahoo = request.query.provider === "yfinance";
  if (request.path === "/api/v1/equity/profile") {
    if (symbol === "AAPL") return obbject(request, [PROFILE]);
    if (symbol === "SPY") return obbject(request, [FUND_PROFILE]);
    return { status: 204 };
  }
  const statement = /^\/api\/v1\/equity\/fundamental\/(income|balance|metrics)$/.exec(request.path)?.[1] as
    | "income"
    | "balance"
    | "metrics"
    | undefined;
  if (statement === undefined) return undefined;
  if (statement !== "metrics" && period !== "annual" && period !== "quarter") {
    return {
      status: 422,
      body: {
        detail: [
          { type: "literal_error", loc: ["query", "period"], msg: "Input should be 'annual' or 'quarter'" },
        ],
      },
    };
  }
  if (symbol !== "AAPL") return { status: 204 };
  if (yahoo) return obbject(request, [YFINANCE[statement]]);
  if (statement === "income") return obbject(request, [FMP.income(period === "quarter")]);
  if (statement === "balance") return obbject(request, [FMP.balance]);
  const metrics = { stable: FMP.metrics, v3: FMP_V3_METRICS, "v3-early": FMP_V3_EARLY_METRICS }[fmpMetrics];
  return obbject(request, [metrics]);
}

/** A 200 whose figures are not numbers: what the adapter must refuse rather than read. */
export function fundamentalsWrongShape(path: string): FakeReply | undefined {
  if (path !== "/api/v1/equity/profile") return undefined;
  return { status: 200, body: { results: [{ symbol: "AAPL", employees: "164,000" }] } };
}
