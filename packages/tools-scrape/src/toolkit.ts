/**
 * @module The scrape toolkit: web_scrape, web_scrape_batch and web_crawl behind one of three providers the
 * deployment chooses. direct fetches through the operator's egress policy (any host it allows, SSRF closed at
 * connect time by the egress client) and extracts the main content here; firecrawl and jina reach their own
 * API host only, with the key injected there by egress.
 */
import { type CredentialPlacement, defineToolkit } from "toolreg/toolkit";
import { createDirectProvider } from "./providers/direct-provider.js";
import { createFirecrawlProvider, FIRECRAWL_BASE_URL } from "./providers/firecrawl-provider.js";
import { createJinaProvider, JINA_BASE_URL } from "./providers/jina-provider.js";
import { type ScrapeConfig, ScrapeConfigSchema } from "./scrape-config.js";
import type { ScrapeEnv } from "./scrape-env.js";
import type { ScrapeProvider } from "./scrape-provider.js";
import { webCrawl } from "./web-crawl.js";
import { webScrape } from "./web-scrape.js";
import { webScrapeBatch } from "./web-scrape-batch.js";

const BEARER: CredentialPlacement = { header: "authorization", scheme: "Bearer" };

export const scrapeToolkit = defineToolkit<ScrapeConfig, ScrapeEnv>({
  id: "scrape",
  version: "0.1.0",
  package: "@toolreg/tools-scrape",
  description:
    "Reads web pages' main content as markdown, several at once, or a site by crawling it: directly, through Firecrawl or through Jina Reader.",
  config: ScrapeConfigSchema,
  // Firecrawl's and Jina's key go as a bearer token; direct takes none (bind injects nothing for it).
  auth: { kind: "api-key", ...BEARER },
  // A direct read goes wherever the URL says, within the operator's egress policy.
  openWorld: true,
  hosts: [new URL(FIRECRAWL_BASE_URL).hostname, new URL(JINA_BASE_URL).hostname],
  tools: [webScrape, webScrapeBatch, webCrawl],
  reviewedOverrides: [
    { tool: "web_scrape", field: "approval" },
    { tool: "web_scrape_batch", field: "approval" },
    { tool: "web_crawl", field: "approval" },
  ],
  bind(config, host): ScrapeEnv {
    return { provider: bindProvider(config, host), userAgent: config.userAgent };
  },
});

function bindProvider(config: ScrapeConfig, host: Parameters<typeof scrapeToolkit.bind>[1]): ScrapeProvider {
  if (config.provider === "direct") return createDirectProvider(host.egress(), config.userAgent);
  const baseUrl = config.baseUrl ?? (config.provider === "firecrawl" ? FIRECRAWL_BASE_URL : JINA_BASE_URL);
  const egress = host.egress({
    hosts: [new URL(baseUrl).hostname],
    ...(config.credentialRef ? { credential: { ...BEARER, credentialRef: config.credentialRef } } : {}),
  });
  // The vendor fetches the page from its own network; the operator's policy still decides which pages it is
  // handed, checked with a client that may reach any host the policy allows (it sends nothing itself).
  const targets = host.egress();
  if (config.provider === "firecrawl")
    return createFirecrawlProvider(egress, targets, baseUrl, config.credentialRef ?? "firecrawl");
  return createJinaProvider(egress, targets, baseUrl, config.credentialRef);
}
