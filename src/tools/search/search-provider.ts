/**
 * @module The search provider port: one capability, many vendors. `web_search` talks to this interface
 * only; each adapter (Brave, Tavily, Serper, SearXNG) maps the options to its vendor's parameters, refuses
 * the ones its vendor cannot honour, and turns the vendor's answer and failures into the shapes here.
 */
import type { EgressClient } from "../../egress/egress-client.js";
import type { ToolContext } from "../../seam/context.js";

export const PROVIDER_NAMES = ["brave", "tavily", "serper", "searxng"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const FRESHNESS = ["day", "week", "month", "year"] as const;
/** How recent a result must be: published (or last changed) within the past day, week, month or year. */
export type Freshness = (typeof FRESHNESS)[number];

export interface SearchOptions {
  /** Results wanted; an adapter may get fewer from its vendor, never sends for more. */
  count: number;
  freshness?: Freshness | undefined;
  /** A domain results must come from, e.g. `nodejs.org`. */
  site?: string | undefined;
}

/** One result as the vendor gave it, in our field names; `web_search` filters, dedupes and numbers them. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  /** As the vendor wrote it: an ISO date, or text such as "3 days ago". */
  published?: string | undefined;
}

export interface SearchProvider {
  readonly name: ProviderName;
  /** The vendor's name as a person knows it, for messages: "Brave Search". */
  readonly label: string;
  /** The endpoint searched, without a query: the source named on the untrusted results. */
  readonly endpoint: string;
  /**
   * Runs one search. Throws a ToolFailure: `invalid_input` for an option the vendor cannot honour (before
   * any request), `upstream_rate_limited` for a rate limit or spent quota, `upstream_error` otherwise.
   */
  search(query: string, options: SearchOptions, context: ToolContext): Promise<readonly SearchHit[]>;
}

/** What an adapter is built from: where its vendor answers, the egress client for that host, its key. */
export interface ProviderSetup {
  /** The vendor's API root (or a self-hosted instance's), without a trailing path to the endpoint. */
  baseUrl: string;
  /** Reaches only the vendor's host, and injects the key there: an adapter never holds the secret. */
  egress: EgressClient;
  /** The reference of the key egress injects, named in messages about a refused key; none for SearXNG. */
  credentialRef?: string | undefined;
}
