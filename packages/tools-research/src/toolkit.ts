/**
 * @module The research toolkit: `research_search` over Wikipedia, arXiv, PubMed and Hacker News. No source
 * needs a key; NCBI takes an optional one in the `api_key` query parameter, which egress places when the
 * deployment names its credentialRef, and then allows ten requests a second instead of three. Each source
 * gets its own egress client that reaches its API's host alone (every Wikipedia edition is a subdomain of
 * wikipedia.org), and arXiv and NCBI each a pacer shared by every call, as their operators ask.
 */
import { defineToolkit, type ToolkitHost } from "toolreg/toolkit";
import { createRequestPacer } from "./request-pacer.js";
import {
  LANGUAGE_SLOT,
  PUBMED_INTERVAL_MS,
  PUBMED_KEYED_INTERVAL_MS,
  type ResearchConfig,
  ResearchConfigSchema,
} from "./research-config.js";
import type { ResearchEnv } from "./research-env.js";
import { SOURCE_LABELS } from "./research-results.js";
import { researchSearch } from "./research-search.js";
import type { ResearchSource, SourceName } from "./research-source.js";
import type { SourceClient } from "./source-http.js";
import { ARXIV_BASE_URL, createArxivSource } from "./sources/arxiv.js";
import { createHackerNewsSource, HACKER_NEWS_BASE_URL } from "./sources/hacker-news.js";
import { createPubmedSource, PUBMED_BASE_URL } from "./sources/pubmed.js";
import { createWikipediaSource, WIKIPEDIA_BASE_URL } from "./sources/wikipedia.js";

const PACKAGE = "@toolreg/tools-research";
const VERSION = "0.1.0";

export const DEFAULT_BASE_URLS: Readonly<Record<SourceName, string>> = {
  wikipedia: WIKIPEDIA_BASE_URL,
  arxiv: ARXIV_BASE_URL,
  pubmed: PUBMED_BASE_URL,
  hackernews: HACKER_NEWS_BASE_URL,
};

/** The host egress lets a source reach: `*.wikipedia.org` for a Wikipedia root with `{lang}` in its host. */
export function sourceHost(baseUrl: string): string {
  const host = new URL(baseUrl.replace(LANGUAGE_SLOT, "xlangx")).hostname;
  return host.startsWith("xlangx.") ? `*.${host.slice("xlangx.".length)}` : host;
}

export const researchToolkit = defineToolkit({
  id: "research",
  version: VERSION,
  package: PACKAGE,
  description:
    "Research: one search over Wikipedia, arXiv, PubMed and Hacker News, with no key (NCBI's optional one raises its pace).",
  config: ResearchConfigSchema,
  // NCBI's optional key; every other source, and PubMed without one, is bound with no credential.
  auth: { kind: "api-key", query: "api_key" },
  hosts: Object.values(DEFAULT_BASE_URLS).map(sourceHost),
  tools: [researchSearch],
  bind(config, host): ResearchEnv {
    return {
      sources: config.sources.map((name) => createSource(name, config, host)),
      maxResults: config.maxResults,
      language: config.wikipediaLanguage,
    };
  },
});

function createSource(name: SourceName, config: ResearchConfig, host: ToolkitHost): ResearchSource {
  const baseUrl = config.baseUrls[name] ?? DEFAULT_BASE_URLS[name];
  const hosts = [sourceHost(baseUrl)];
  const keyed = name === "pubmed" && config.credentialRef !== undefined;
  const client: SourceClient = {
    label: SOURCE_LABELS[name],
    egress: host.egress(
      keyed && config.credentialRef
        ? { hosts, credential: { query: "api_key", credentialRef: config.credentialRef } }
        : { hosts },
    ),
    userAgent: `toolreg-tools-research/${VERSION}${config.contactEmail ? ` (mailto:${config.contactEmail})` : ""}`,
  };
  switch (name) {
    case "wikipedia":
      return createWikipediaSource(client, baseUrl);
    case "arxiv":
      return createArxivSource(
        client,
        baseUrl,
        createRequestPacer("arXiv", config.pacingMs.arxiv, "its terms ask one request every three seconds"),
      );
    case "pubmed":
      return createPubmedSource(
        client,
        baseUrl,
        keyed
          ? createRequestPacer(
              "NCBI",
              config.pacingMs.pubmed ?? PUBMED_KEYED_INTERVAL_MS,
              "ten requests a second with an API key",
            )
          : createRequestPacer(
              "NCBI",
              config.pacingMs.pubmed ?? PUBMED_INTERVAL_MS,
              "three requests a second without an API key",
            ),
        { tool: "toolreg", email: config.contactEmail },
      );
    case "hackernews":
      return createHackerNewsSource(client, baseUrl);
  }
}
