/**
 * @module The finance provider port: `stock_quote` and `stock_fundamentals` talk to this interface only.
 * Each adapter (Yahoo Finance's chart and quoteSummary endpoints, Financial Datasets, a deployment's OpenBB Platform API)
 * says which of the two tools it can answer, maps its vendor's answer into the shapes here and turns its failures into ToolFailures.
 */
import type { EgressClient, ToolContext } from "toolreg/toolkit";

export const PROVIDER_NAMES = ["yfinance", "financial-datasets", "openbb"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const FINANCE_TOOLS = ["stock_quote", "stock_fundamentals"] as const;
export type FinanceToolName = (typeof FINANCE_TOOLS)[number];

export const PERIODS = ["annual", "quarterly"] as const;
export type Period = (typeof PERIODS)[number];

/** One symbol's latest price, in our field names; numbers the vendor did not give are null. */
export interface Quote {
  symbol: string;
  name: string | null;
  price: number;
  change: number | null;
  changePercent: number | null;
  previousClose: number | null;
  currency: string | null;
  exchange: string | null;
  /** When the price was set, ISO 8601, as the vendor reported it. */
  marketTime: string | null;
}

export interface CompanyFacts {
  name: string | null;
  sector: string | null;
  industry: string | null;
  exchange: string | null;
  employees: number | null;
  website: string | null;
}

/** The latest statement's headline figures, in the statement's currency. */
export interface StatementFigures {
  reportPeriod: string | null;
  fiscalPeriod: string | null;
  currency: string | null;
  revenue: number | null;
  grossProfit: number | null;
  operatingIncome: number | null;
  netIncome: number | null;
  earningsPerShare: number | null;
  totalAssets: number | null;
  totalLiabilities: number | null;
  shareholdersEquity: number | null;
  cashAndEquivalents: number | null;
}

export interface Ratios {
  marketCap: number | null;
  priceToEarnings: number | null;
  priceToBook: number | null;
  priceToSales: number | null;
  grossMargin: number | null;
  operatingMargin: number | null;
  netMargin: number | null;
  returnOnEquity: number | null;
  debtToEquity: number | null;
  currentRatio: number | null;
}

export interface Fundamentals {
  symbol: string;
  period: Period;
  company: CompanyFacts;
  statement: StatementFigures;
  ratios: Ratios;
}

export interface FinanceProvider {
  readonly name: ProviderName;
  /** The vendor's name as a person knows it, for messages. */
  readonly label: string;
  /** The API root answered from: the source named on the untrusted results. */
  readonly endpoint: string;
  /** The tools this vendor can answer; the other tools fail with precondition_failed, saying so. */
  readonly supports: readonly FinanceToolName[];
  /** How this vendor spells symbols that vendors spell differently, said beside the symbols it did not find. */
  readonly symbolHint?: string;
  /**
   * One symbol's quote, or undefined when the vendor knows no such symbol. Throws a ToolFailure for a
   * refused key, a rate limit or spent quota, or an answer that is not the vendor's documented shape.
   */
  quote(symbol: string, context: ToolContext): Promise<Quote | undefined>;
  /** One symbol's fundamentals, or undefined when unknown; only where `supports` names stock_fundamentals. */
  fundamentals?(symbol: string, period: Period, context: ToolContext): Promise<Fundamentals | undefined>;
}

/** What an adapter is built from: where its vendor answers and the egress client that reaches only there. */
export interface ProviderSetup {
  baseUrl: string;
  egress: EgressClient;
  /** The reference of the key egress injects, named in messages about a refused key. */
  credentialRef?: string | undefined;
}
