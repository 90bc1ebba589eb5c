/**
 * @module The OpenBB adapter: the OpenBB Platform's REST API that a deployment runs itself (`openbb-api`),
 * at the `baseUrl` it names. Quotes from `GET /api/v1/equity/price/quote?symbol=[&provider=]`, whose
 * answer is an OBBject `{results: [EquityQuoteData], provider, warnings, …}`; `change_percent` is a
 * normalized fraction (0.0116 for 1.16 %), per openbb_core's EquityQuoteData. Its failures
 * (openbb_core/api/exception_handlers.py): 204 with no body when the data provider found nothing, 400
 * `{detail}` for an OpenBBError (the data provider's own refusal, a missing provider key among them), 422
 * `{detail}` for a bad parameter, 500 `{detail: "Unexpected error."}`; 401 when the deployment enabled the
 * API's basic auth and the credential does not match. Fundamentals: openbb-fundamentals.ts.
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
import type { FinanceProvider, ProviderSetup, Quote } from "./finance-provider.js";
import { openbbFundamentals } from "./openbb-fundamentals.js";

const QuoteData = z.object({
  symbol: z.string(),
  name: z.string().nullish(),
  exchange: z.string().nullish(),
  last_price: z.number().nullish(),
  close: z.number().nullish(),
  prev_close: z.number().nullish(),
  change: z.number().nullish(),
  change_percent: z.number().nullish(),
  last_timestamp: z.string().nullish(),
  // Not in the standard model: some data providers (yfinance, fmp) add it.
  currency: z.string().nullish(),
});
const QuoteAnswer = z.object({ results: z.array(QuoteData), provider: z.string().nullish() });
const ErrorBody = z.object({ detail: z.unknown() });

export function createOpenBBProvider(
  { baseUrl, egress, credentialRef }: ProviderSetup,
  dataProvider?: string,
): FinanceProvider {
  const identity: VendorIdentity = {
    label: "OpenBB",
    whenRefused: credentialRef
      ? `the deployment must set the credential "${credentialRef}" to the base64 of the OpenBB API's user:password`
      : `the OpenBB API at ${baseUrl} asks for basic auth: the deployment must configure a credentialRef for it`,
  };
  /** One GET, asking the configured data provider; undefined for the 204 that says it found nothing. */
  async function get<T>(
    path: string,
    query: Record<string, string>,
    schema: z.ZodType<T>,
    context: ToolContext,
  ): Promise<T | undefined> {
    const url = endpointUrl(baseUrl, path, { ...query, provider: dataProvider || undefined });
    const { response, body } = await sendRequest(egress, context, url);
    if (response.status === 204) return undefined;
    if (response.status >= 400) throw openbbFailure(identity, response, body);
    return parseAnswer(identity, response, body, schema);
  }

  return {
    name: "openbb",
    label: identity.label,
    endpoint: endpointUrl(baseUrl, "/api/v1/equity"),
    supports: ["stock_quote", "stock_fundamentals"],
    async quote(symbol, context): Promise<Quote | undefined> {
      const answer = await get("/api/v1/equity/price/quote", { symbol }, QuoteAnswer, context);
      const found = answer?.results.find((result) => result.symbol.toUpperCase() === symbol);
      const price = found?.last_price ?? found?.close;
      if (found === undefined || price === undefined || price === null) return undefined;
      return {
        symbol: found.symbol.toUpperCase(),
        name: found.name ?? null,
        price,
        change: found.change ?? null,
        changePercent:
          found.change_percent === undefined || found.change_percent === null
            ? null
            : Math.round(found.change_percent * 100 * 10_000) / 10_000,
        previousClose: found.prev_close ?? null,
        currency: found.currency ?? null,
        exchange: found.exchange ?? null,
        marketTime: found.last_timestamp ?? null,
      };
    },
    fundamentals: (symbol, period, context) => openbbFundamentals(get, symbol, period, context),
  };
}

function openbbFailure(identity: VendorIdentity, response: EgressResponse, body: unknown) {
  const parsed = ErrorBody.safeParse(body);
  const detail = parsed.success
    ? shortDetail(
        typeof parsed.data.detail === "string" ? parsed.data.detail : JSON.stringify(parsed.data.detail),
      )
    : undefined;
  return statusFailure(identity, response, detail);
}
