/**
 * @module The search toolkit: `web_search` behind one of four providers, chosen by the deployment's
 * configuration. Each request goes through egress to the provider's host only, with the key injected
 * there in the header that provider expects; with no provider configured the tool does not exist.
 */
import type { CredentialPlacement } from "../toolkit/auth-model.js";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { BRAVE_BASE_URL, createBraveProvider } from "./brave-provider.js";
import { DEFAULT_MAX_RESULTS, type SearchConfig, SearchConfigSchema } from "./search-config.js";
import type { SearchEnv } from "./search-env.js";
import type { ProviderName, ProviderSetup, SearchProvider } from "./search-provider.js";
import { createSearxngProvider } from "./searxng-provider.js";
import { createSerperProvider, SERPER_BASE_URL } from "./serper-provider.js";
import { createTavilyProvider, TAVILY_BASE_URL } from "./tavily-provider.js";
import { webSearch } from "./web-search.js";

interface ProviderSpec {
  create(setup: ProviderSetup): SearchProvider;
  /** The vendor's API root; none for SearXNG, whose instance the deployment names. */
  baseUrl?: string;
  /** Where egress puts the key on each request; none for SearXNG, which takes none. */
  placement?: CredentialPlacement;
}

export const SEARCH_PROVIDERS: Readonly<Record<ProviderName, ProviderSpec>> = {
  brave: {
    create: createBraveProvider,
    baseUrl: BRAVE_BASE_URL,
    placement: { header: "x-subscription-token" },
  },
  tavily: {
    create: createTavilyProvider,
    baseUrl: TAVILY_BASE_URL,
    placement: { header: "authorization", scheme: "Bearer" },
  },
  serper: { create: createSerperProvider, baseUrl: SERPER_BASE_URL, placement: { header: "x-api-key" } },
  searxng: { create: createSearxngProvider },
};

export const searchToolkit = defineToolkit<SearchConfig, SearchEnv>({
  id: "search",
  version: "0.1.0",
  package: "toolreg",
  description:
    "Web search through the provider the deployment chose: Brave Search, Tavily, Serper or SearXNG.",
  config: SearchConfigSchema,
  // One placement per toolkit fits a single vendor; this one has four. This names Brave's, and bind
  // injects the configured provider's (SEARCH_PROVIDERS) whichever it is.
  auth: { kind: "api-key", header: "x-subscription-token" },
  hosts: Object.values(SEARCH_PROVIDERS).flatMap((spec) =>
    spec.baseUrl ? [new URL(spec.baseUrl).hostname] : [],
  ),
  tools: [webSearch],
  reviewedOverrides: [{ tool: "web_search", field: "approval" }],
  bind(config, host): SearchEnv | undefined {
    if (config.provider === undefined) return undefined;
    const spec = SEARCH_PROVIDERS[config.provider];
    const baseUrl = config.baseUrl ?? spec.baseUrl;
    // The schema requires one for SearXNG, the one provider without a default: this is a broken invariant.
    if (baseUrl === undefined) throw new TypeError(`toolkit search: ${config.provider} needs a baseUrl`);
    const hosts = [new URL(baseUrl).hostname];
    const { credentialRef } = config;
    const egress = host.egress(
      spec.placement && credentialRef
        ? { hosts, credential: { ...spec.placement, credentialRef } }
        : { hosts },
    );
    return {
      provider: spec.create({ baseUrl, egress, credentialRef }),
      maxResults: config.maxResults ?? DEFAULT_MAX_RESULTS,
    };
  },
});
