/**
 * @module `stock_quote`: the latest price of one or more symbols from the configured provider. Symbols the
 * vendor does not know are listed as not found rather than failing the others; a refused key, a rate
 * limit or a malformed answer fails the call. Prices are the vendor's data: returned as untrusted.
 */
import { oneLine, ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { MAX_SYMBOLS } from "./finance-config.js";
import { financeTool } from "./finance-env.js";
import { SymbolSchema } from "./finance-input.js";
import type { Quote } from "./finance-provider.js";

const QuoteSchema = z.object({
  symbol: z.string(),
  name: z.string().nullable(),
  price: z.number(),
  change: z.number().nullable(),
  changePercent: z.number().nullable(),
  previousClose: z.number().nullable(),
  currency: z.string().nullable(),
  exchange: z.string().nullable(),
  marketTime: z.string().nullable(),
});

export const stockQuote = financeTool({
  name: "stock_quote",
  description:
    "Gets the latest price of one or more stock, index, fund or currency symbols: price, change and change percent since the previous close, currency, exchange and the market time of the price. Symbols are ticker symbols such as AAPL, ^GSPC or EURUSD=X; share classes and listings outside the US are spelled as the provider spells them (on Yahoo BRK-B and VOD.L), and a symbol the provider does not know is listed under notFound with the provider's spelling rule. Use stock_fundamentals for company facts and financial statements. Names and figures are the provider's data.",
  category: "finance",
  effect: "read",
  approval: "never",
  cost: "io",
  input: z.strictObject({
    symbols: z
      .array(SymbolSchema)
      .min(1)
      .max(MAX_SYMBOLS)
      .describe(
        "the ticker symbols to quote (the deployment allows at most maxSymbols, 10 unless configured)",
      ),
  }),
  output: z.object({
    provider: z.string(),
    quotes: z.array(QuoteSchema),
    notFound: z.array(z.string()),
  }),
  async run({ symbols }, context, { provider, maxSymbols }) {
    const unique = [...new Set(symbols)];
    if (unique.length > maxSymbols) {
      throw new ToolFailure(
        "invalid_input",
        `this deployment quotes at most ${maxSymbols} symbols in one call and ${unique.length} were asked for; split them into several calls`,
      );
    }
    const quotes: Quote[] = [];
    const notFound: string[] = [];
    // One at a time: both vendors rate-limit per second, and a list of ten is ten requests either way.
    for (const symbol of unique) {
      const quote = await provider.quote(symbol, context);
      if (quote === undefined) notFound.push(symbol);
      else quotes.push(cleanQuote(quote));
    }
    return {
      content: renderQuotes(provider.label, quotes, notFound, provider.symbolHint),
      data: { provider: provider.name, quotes, notFound },
      provenance: { source: provider.endpoint, trusted: false },
    };
  },
});

/** The vendor's text on one bounded line, so a name cannot start a line of the output of its own. */
function cleanQuote(quote: Quote): Quote {
  const line = (text: string | null, limit: number) => (text === null ? null : oneLine(text, limit));
  return {
    ...quote,
    symbol: oneLine(quote.symbol, 30),
    name: line(quote.name, 200),
    currency: line(quote.currency, 20),
    exchange: line(quote.exchange, 100),
    marketTime: line(quote.marketTime, 40),
  };
}

function renderQuotes(
  label: string,
  quotes: readonly Quote[],
  notFound: readonly string[],
  symbolHint: string | undefined,
): string {
  const lines = quotes.map((quote) => {
    const change =
      quote.change === null
        ? ""
        : ` ${quote.change >= 0 ? "+" : ""}${quote.change}${quote.changePercent === null ? "" : ` (${quote.changePercent >= 0 ? "+" : ""}${quote.changePercent}%)`}`;
    const where = [quote.exchange, quote.marketTime].filter(Boolean).join(", ");
    return `${quote.symbol}${quote.name ? ` (${quote.name})` : ""}: ${quote.price}${quote.currency ? ` ${quote.currency}` : ""}${change}${where ? ` — ${where}` : ""}`;
  });
  if (notFound.length > 0) {
    lines.push(`Not found at ${label}: ${notFound.join(", ")}${symbolHint ? ` (${symbolHint})` : ""}`);
  }
  return [`${label} quotes:`, ...lines].join("\n");
}
