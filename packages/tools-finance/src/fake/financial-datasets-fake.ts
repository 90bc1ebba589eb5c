/**
 * @module A local Financial Datasets API (https://docs.financialdatasets.ai). What it reproduces:
 * - the key in `X-API-KEY` on every request (each API page's "Getting Started");
 * - `GET /prices/snapshot?ticker=` → `{snapshot: {ticker, price, day_change, day_change_percent, time}}`
 *   (api/prices/snapshot);
 * - `GET /company/facts?ticker=` → `{company_facts: {…}}` (api/company/facts/ticker);
 * - `GET /financials/income-statements` and `/financials/balance-sheets` with `ticker, period, limit`
 *   → `{income_statements: […]}`, `{balance_sheets: […]}` (guides/analyze-financial-statements-python);
 * - `GET /financial-metrics` → `{financial_metrics: […]}` (api/financial-metrics);
 * - failures: 401 for a missing or wrong key, 402 Payment Required when the credit balance is spent,
 *   429 with and without Retry-After, 404 for a ticker it does not cover, and a malformed 200.
 */
import { type FakeReply, HTML_PAGE, type SeenRequest, startVendorFake, type VendorFake } from "toolreg/test";

export const FD_KEY = "fd-test-key";

export type FinancialDatasetsScenario =
  | "credits-spent"
  | "rate-limited"
  | "rate-limited-retry-after"
  | "not-json"
  | "wrong-shape";

const error = (status: number, message: string): FakeReply => ({
  status,
  body: { error: STATUS_NAMES[status] ?? "Error", message },
});
const STATUS_NAMES: Record<number, string> = {
  401: "Unauthorized",
  402: "Payment Required",
  404: "Not Found",
  429: "Too Many Requests",
};

function answer(request: SeenRequest, scenario: FinancialDatasetsScenario | undefined): FakeReply {
  if (request.headers["x-api-key"] !== FD_KEY) return error(401, "Invalid API key");
  switch (scenario) {
    case "credits-spent":
      return error(402, "Insufficient credits. Please add credits to your account.");
    case "rate-limited":
      return error(429, "Rate limit exceeded");
    case "rate-limited-retry-after":
      return { ...error(429, "Rate limit exceeded"), headers: { "retry-after": "12" } };
    case "not-json":
      return HTML_PAGE;
    case "wrong-shape":
      return { status: 200, body: { snapshot: { ticker: "AAPL", price: "195.50" } } };
  }
  const ticker = request.query.ticker;
  if (ticker !== "AAPL") return error(404, `No data found for ticker ${ticker ?? ""}`);
  const period = request.query.period;
  switch (request.path) {
    case "/prices/snapshot":
      return {
        status: 200,
        body: {
          snapshot: {
            ticker,
            price: 195.5,
            day_change: 2.25,
            day_change_percent: 1.1643,
            time: "2026-12-05T21:00:00Z",
            time_milliseconds: 1_764_968_400_000,
          },
        },
      };
    case "/company/facts":
      return {
        status: 200,
        body: {
          company_facts: {
            ticker,
            name: "Apple Inc",
            cik: "0000320193",
            sector: "Information Technology",
            industry: "Technology Hardware, Storage & Peripherals",
            exchange: "NASDAQ",
            number_of_employees: 164000,
            website_url: "https://www.apple.com",
          },
        },
      };
    case "/financials/income-statements":
      return {
        status: 200,
        body: {
          income_statements: [
            {
              ticker,
              report_period: period === "quarterly" ? "2026-09-27" : "2026-09-27",
              fiscal_period: period === "quarterly" ? "2026-Q4" : "2026-FY",
              period,
              currency: "USD",
              revenue: period === "quarterly" ? 102_000_000_000 : 416_000_000_000,
              gross_profit: 195_000_000_000,
              operating_income: 133_000_000_000,
              net_income: 112_000_000_000,
              earnings_per_share: 7.46,
            },
          ],
        },
      };
    case "/financials/balance-sheets":
      return {
        status: 200,
        body: {
          balance_sheets: [
            {
              ticker,
              total_assets: 359_000_000_000,
              total_liabilities: 285_000_000_000,
              shareholders_equity: 74_000_000_000,
              cash_and_equivalents: 35_900_000_000,
            },
          ],
        },
      };
    case "/financial-metrics":
      return {
        status: 200,
        body: {
          financial_metrics: [
            {
              ticker,
              market_cap: 2_900_000_000_000,
              price_to_earnings_ratio: 26.2,
              price_to_book_ratio: 39.1,
              price_to_sales_ratio: 7,
              gross_margin: 0.469,
              operating_margin: 0.32,
              net_margin: 0.269,
              return_on_equity: 1.51,
              debt_to_equity: 1.3,
              current_ratio: 0.89,
            },
          ],
        },
      };
  }
  return error(404, "Not Found");
}

export function startFinancialDatasetsFake(): Promise<VendorFake<FinancialDatasetsScenario>> {
  return startVendorFake(answer);
}
