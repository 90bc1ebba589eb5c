/**
 * @module Yahoo Finance's session and quoteSummary, as the Yahoo fake serves them beside the chart. What it
 * reproduces:
 * - the session cookie: fc.yahoo.com answers 404 with `Set-Cookie: A3=…` (ranaroussi/yfinance
 *   yfinance/data.py `_get_cookie_basic` takes the cookie from whatever fc.yahoo.com answers); the fake's
 *   root stands in for it, the cookie host-only as a fake on 127.0.0.1 must be;
 * - `/v1/test/getcrumb`: the crumb as plain text with that cookie (data.py `_get_crumb_basic`), 401
 *   `{"finance":{"result":null,"error":{"code":"Unauthorized","description":"Invalid Cookie"}}}` without it
 *   (pilwon/node-yahoo-finance#92 quotes the body; Ooples-Finance-LLC/OoplesFinance.YahooFinanceAPI#72 the
 *   401 from getcrumb without the cookie);
 * - `/v10/finance/quoteSummary/{symbol}?modules=…&crumb=…`: the modules yfinance asks (scrapers/quote.py
 *   `_fetch_info`), each figure `{raw, fmt}`; 401 `{"finance":{"result":null,"error":{"code":"Unauthorized",
 *   "description":"Invalid Crumb"}}}` when the crumb or its cookie is missing or stale (iprak/yahoofinance#93);
 *   an unknown symbol 404 `{"quoteSummary":{"result":null,"error":{"code":"Not Found","description":"Quote
 *   not found for symbol: X"}}}`.
 */
import type { FakeReply, SeenRequest } from "toolreg/test";

/** Yahoo's figure shape; the fake's `fmt` is only ever a string. */
const figure = (raw: number) => ({ raw, fmt: String(raw) });

const SUMMARIES: Record<string, object> = {
  AAPL: {
    quoteType: { symbol: "AAPL", longName: "Apple Inc.", shortName: "Apple Inc.", exchange: "NMS" },
    assetProfile: {
      sector: "Technology",
      industry: "Consumer Electronics",
      fullTimeEmployees: 164_000,
      website: "https://www.apple.com",
    },
    financialData: {
      financialCurrency: "USD",
      totalRevenue: figure(416_161_000_000),
      grossProfits: figure(195_201_000_000),
      totalCash: figure(54_697_000_000),
      grossMargins: figure(0.46906),
      operatingMargins: figure(0.31647),
      profitMargins: figure(0.26915),
      returnOnEquity: figure(1.71422),
      debtToEquity: figure(152.411),
      currentRatio: figure(0.893),
    },
    defaultKeyStatistics: {
      trailingEps: figure(7.46),
      netIncomeToCommon: figure(112_010_000_000),
      priceToBook: figure(52.41),
      mostRecentQuarter: figure(1_758_931_200),
    },
    summaryDetail: {
      marketCap: figure(4_020_000_000_000),
      trailingPE: figure(36.2),
      priceToSalesTrailing12Months: figure(9.66),
    },
  },
  // An index has a quote type and little else: the rest is absent, not zero.
  "^GSPC": { quoteType: { symbol: "^GSPC", shortName: "S&P 500", exchange: "SNP" } },
};

const unauthorized = (description: string): FakeReply => ({
  status: 401,
  body: { finance: { result: null, error: { code: "Unauthorized", description } } },
});

/** The fake's one valid session at a time; `rotate` makes the last cookie and crumb stale. */
export class YahooSession {
  #generation = 1;
  /** How many quoteSummary answers to come find the session stale, whatever they carry. */
  staleAnswers = 0;
  get cookie(): string {
    return `d=AQABBFAKE${this.#generation}&S=AQAAAFAKE`;
  }
  get crumb(): string {
    return `Fake.Crumb${this.#generation}`;
  }
  rotate(): void {
    this.#generation += 1;
  }

  #hasCookie(request: SeenRequest): boolean {
    return (request.headers.cookie ?? "").split("; ").includes(`A3=${this.cookie}`);
  }

  /** The answer for a session or quoteSummary path, or undefined for any other. */
  answer(request: SeenRequest): FakeReply | undefined {
    if (request.path === "/") {
      return {
        status: 404,
        headers: {
          "content-type": "text/html",
          "set-cookie": `A3=${this.cookie}; Max-Age=31557600; Path=/; SameSite=None; HttpOnly`,
        },
        body: "<html><body>Not Found</body></html>",
      };
    }
    if (request.path === "/v1/test/getcrumb") {
      if (!this.#hasCookie(request)) return unauthorized("Invalid Cookie");
      return { status: 200, headers: { "content-type": "text/plain;charset=utf-8" }, body: this.crumb };
    }
    const match = /^\/v10\/finance\/quoteSummary\/([^/]+)$/.exec(request.path);
    if (!match) return undefined;
    if (this.staleAnswers > 0) {
      this.staleAnswers -= 1;
      this.rotate();
    }
    if (!this.#hasCookie(request) || request.query.crumb !== this.crumb) return unauthorized("Invalid Crumb");
    const symbol = decodeURIComponent(match[1] ?? "");
    const summary = SUMMARIES[symbol];
    if (summary === undefined) {
      return {
        status: 404,
        body: {
          quoteSummary: {
            result: null,
            error: { code: "Not Found", description: `Quote not found for symbol: ${symbol}` },
          },
        },
      };
    }
    return { status: 200, body: { quoteSummary: { result: [summary], error: null } } };
  }
}
