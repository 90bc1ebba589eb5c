/**
 * @module The Financial Datasets adapter (https://docs.financialdatasets.ai), the key in `X-API-KEY`:
 * quotes from `GET /prices/snapshot?ticker=` (`{snapshot: {ticker, price, day_change, day_change_percent,
 * time}}`), fundamentals from `GET /company/facts` (`{company_facts}`), the latest
 * `/financials/income-statements` and `/financials/balance-sheets` (`period=annual|quarterly&limit=1`)
 * and `/financial-metrics` for the ratios. A ticker it does not cover answers 404; a spent credit balance
 * 402 Payment Required; too many requests 429.
 */
import type { EgressResponse, ToolContext } from "toolreg/toolkit";
import {
  endpointUrl,
  parseAnswer,
  sendRequest,
  shortDetail,
  statusFailure,
  type VendorIdentity,
} from "toolreg/toolkit";
import { z } from "zod";
import type { FinanceProvider, Fundamentals, Period, ProviderSetup, Quote } from "./finance-provider.js";

export const FINANCIAL_DATASETS_BASE_URL = "https://api.financialdatasets.ai";

const num = z.number().nullish();
const text = z.string().nullish();

const SnapshotAnswer = z.object({
  snapshot: z.object({
    ticker: z.string(),
    price: z.number(),
    day_change: num,
    day_change_percent: num,
    time: text,
  }),
});
const FactsAnswer = z.object({
  company_facts: z.object({
    name: text,
    sector: text,
    industry: text,
    exchange: text,
    number_of_employees: num,
    website_url: text,
  }),
});
const IncomeAnswer = z.object({
  income_statements: z.array(
    z.object({
      report_period: text,
      fiscal_period: text,
      currency: text,
      revenue: num,
      gross_profit: num,
      operating_income: num,
      net_income: num,
      earnings_per_share: num,
    }),
  ),
});
const BalanceAnswer = z.object({
  balance_sheets: z.array(
    z.object({
      total_assets: num,
      total_liabilities: num,
      shareholders_equity: num,
      cash_and_equivalents: num,
    }),
  ),
});
const MetricsAnswer = z.object({
  financial_metrics: z.array(
    z.object({
      market_cap: num,
      price_to_earnings_ratio: num,
      price_to_book_ratio: num,
      price_to_sales_ratio: num,
      gross_margin: num,
      operating_margin: num,
      net_margin: num,
      return_on_equity: num,
      debt_to_equity: num,
      current_ratio: num,
    }),
  ),
});
/** Its errors carry a message in `error`, `message` or `detail`, depending on the layer that refused. */
const ErrorBody = z.object({ error: text, message: text, detail: text });

const nil = <T>(value: T | null | undefined): T | null => value ?? null;

export function createFinancialDatasetsProvider({
  baseUrl,
  egress,
  credentialRef,
}: ProviderSetup): FinanceProvider {
  const identity: VendorIdentity = {
    label: "Financial Datasets",
    whenRefused: `the deployment must set the credential "${credentialRef ?? "(none)"}" to a valid Financial Datasets API key`,
  };

  /** One GET; undefined for a 404 (a ticker it does not cover). */
  async function get<T>(
    path: string,
    query: Record<string, string>,
    schema: z.ZodType<T>,
    context: ToolContext,
  ): Promise<T | undefined> {
    const { response, body } = await sendRequest(egress, context, endpointUrl(baseUrl, path, query));
    if (response.status === 404) return undefined;
    if (response.status >= 400) throw failureOf(identity, response, body);
    return parseAnswer(identity, response, body, schema);
  }

  return {
    name: "financial-datasets",
    label: identity.label,
    endpoint: baseUrl,
    supports: ["stock_quote", "stock_fundamentals"],
    async quote(symbol, context): Promise<Quote | undefined> {
      const answer = await get("/prices/snapshot", { ticker: symbol }, SnapshotAnswer, context);
      if (answer === undefined) return undefined;
      const { snapshot } = answer;
      const change = nil(snapshot.day_change);
      return {
        symbol: snapshot.ticker,
        name: null,
        price: snapshot.price,
        change,
        changePercent: nil(snapshot.day_change_percent),
        previousClose: change === null ? null : Math.round((snapshot.price - change) * 10_000) / 10_000,
        // The snapshot API covers US listings, priced in dollars (its overview: "all actively traded US stocks").
        currency: "USD",
        exchange: null,
        marketTime: nil(snapshot.time),
      };
    },
    async fundamentals(symbol, period: Period, context): Promise<Fundamentals | undefined> {
      const facts = await get("/company/facts", { ticker: symbol }, FactsAnswer, context);
      if (facts === undefined) return undefined;
      const latest = { ticker: symbol, period, limit: "1" };
      const income = await get("/financials/income-statements", latest, IncomeAnswer, context);
      const balance = await get("/financials/balance-sheets", latest, BalanceAnswer, context);
      const metrics = await get("/financial-metrics", latest, MetricsAnswer, context);
      const company = facts.company_facts;
      const statement = income?.income_statements[0];
      const sheet = balance?.balance_sheets[0];
      const ratio = metrics?.financial_metrics[0];
      return {
        symbol,
        period,
        company: {
          name: nil(company.name),
          sector: nil(company.sector),
          industry: nil(company.industry),
          exchange: nil(company.exchange),
          employees: nil(company.number_of_employees),
          website: nil(company.website_url),
        },
        statement: {
          reportPeriod: nil(statement?.report_period),
          fiscalPeriod: nil(statement?.fiscal_period),
          currency: nil(statement?.currency),
          revenue: nil(statement?.revenue),
          grossProfit: nil(statement?.gross_profit),
          operatingIncome: nil(statement?.operating_income),
          netIncome: nil(statement?.net_income),
          earningsPerShare: nil(statement?.earnings_per_share),
          totalAssets: nil(sheet?.total_assets),
          totalLiabilities: nil(sheet?.total_liabilities),
          shareholdersEquity: nil(sheet?.shareholders_equity),
          cashAndEquivalents: nil(sheet?.cash_and_equivalents),
        },
        ratios: {
          marketCap: nil(ratio?.market_cap),
          priceToEarnings: nil(ratio?.price_to_earnings_ratio),
          priceToBook: nil(ratio?.price_to_book_ratio),
          priceToSales: nil(ratio?.price_to_sales_ratio),
          grossMargin: nil(ratio?.gross_margin),
          operatingMargin: nil(ratio?.operating_margin),
          netMargin: nil(ratio?.net_margin),
          returnOnEquity: nil(ratio?.return_on_equity),
          debtToEquity: nil(ratio?.debt_to_equity),
          currentRatio: nil(ratio?.current_ratio),
        },
      };
    },
  };
}

function failureOf(identity: VendorIdentity, response: EgressResponse, body: unknown) {
  const parsed = ErrorBody.safeParse(body);
  const said = parsed.success ? (parsed.data.message ?? parsed.data.error ?? parsed.data.detail) : undefined;
  const detail = said ? shortDetail(said) : undefined;
  return statusFailure(identity, response, detail);
}
