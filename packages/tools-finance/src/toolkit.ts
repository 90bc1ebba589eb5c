/**
 * @module The finance toolkit: `stock_quote` and `stock_fundamentals` behind the provider the deployment
 * chose. Each request goes through egress to that provider's host only, with its key injected there;
 * Yahoo takes none, but keeps an anonymous session in a cookie, so its client alone gets a cookie jar.
 */
import { type CredentialPlacement, defineToolkit } from "toolreg/toolkit";
import { type FinanceConfig, FinanceConfigSchema } from "./finance-config.js";
import type { FinanceEnv } from "./finance-env.js";
import type { FinanceProvider, ProviderName, ProviderSetup } from "./finance-provider.js";
import {
  createFinancialDatasetsProvider,
  FINANCIAL_DATASETS_BASE_URL,
} from "./financial-datasets-provider.js";
import { createOpenBBProvider } from "./openbb-provider.js";
import { stockFundamentals } from "./stock-fundamentals.js";
import { stockQuote } from "./stock-quote.js";
import { yahooSessionUrl } from "./yahoo-fundamentals.js";
import { createYahooProvider, YAHOO_BASE_URL } from "./yahoo-provider.js";

interface ProviderSpec {
  create(setup: ProviderSetup, config: FinanceConfig): FinanceProvider;
  /** The vendor's API root; none for OpenBB, which the deployment runs and names. */
  baseUrl?: string;
  /** Where egress puts the key; none for Yahoo's keyless chart endpoint. */
  placement?: CredentialPlacement;
  /** Where an anonymous session's cookie is set (Yahoo's fc.yahoo.com): a host more, and a cookie jar. */
  sessionUrl?(baseUrl: string): string;
}

export const FINANCE_PROVIDERS: Readonly<Record<ProviderName, ProviderSpec>> = {
  yfinance: {
    create: createYahooProvider,
    baseUrl: YAHOO_BASE_URL,
    sessionUrl: (baseUrl) => yahooSessionUrl(baseUrl, YAHOO_BASE_URL),
  },
  "financial-datasets": {
    create: createFinancialDatasetsProvider,
    baseUrl: FINANCIAL_DATASETS_BASE_URL,
    placement: { header: "x-api-key" },
  },
  openbb: {
    create: (setup, config) => createOpenBBProvider(setup, config.openbbProvider),
    placement: { header: "authorization", scheme: "Basic" },
  },
};

export const financeToolkit = defineToolkit<FinanceConfig, FinanceEnv>({
  id: "finance",
  version: "0.1.0",
  package: "@toolreg/tools-finance",
  description:
    "Stock quotes and company fundamentals from Yahoo Finance, Financial Datasets or an OpenBB Platform API.",
  config: FinanceConfigSchema,
  // One placement per toolkit fits one vendor; this names Financial Datasets', and bind injects the
  // configured provider's (none for yfinance), as the search toolkit does for its keyless SearXNG.
  auth: { kind: "api-key", header: "x-api-key" },
  hosts: Object.values(FINANCE_PROVIDERS).flatMap((spec) =>
    spec.baseUrl ? hostsOf(spec, spec.baseUrl) : [],
  ),
  tools: [stockQuote, stockFundamentals],
  bind(config, host): FinanceEnv {
    const spec = FINANCE_PROVIDERS[config.provider];
    const baseUrl = config.baseUrl ?? spec.baseUrl;
    // The schema requires one for openbb, the one provider without a default: this is a broken invariant.
    if (baseUrl === undefined) throw new TypeError(`toolkit finance: ${config.provider} needs a baseUrl`);
    const hosts = hostsOf(spec, baseUrl);
    const { credentialRef } = config;
    const egress = host.egress({
      hosts,
      ...(spec.placement && credentialRef ? { credential: { ...spec.placement, credentialRef } } : {}),
      // For Yahoo's anonymous session only: this client's jar is shared by every caller of the deployment.
      ...(spec.sessionUrl ? { sessionCookies: true } : {}),
    });
    return {
      provider: spec.create({ baseUrl, egress, credentialRef }, config),
      maxSymbols: config.maxSymbols,
    };
  },
});

/** The API's host, and the session cookie's when it is elsewhere. */
function hostsOf(spec: ProviderSpec, baseUrl: string): string[] {
  const hosts = [new URL(baseUrl).hostname];
  const session = spec.sessionUrl ? new URL(spec.sessionUrl(baseUrl)).hostname : undefined;
  return session === undefined || hosts.includes(session) ? hosts : [...hosts, session];
}
