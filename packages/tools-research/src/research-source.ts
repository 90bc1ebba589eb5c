/**
 * @module The research source port: one search, four archives. `research_search` asks each chosen source
 * through this interface; each adapter (Wikipedia, arXiv, PubMed, Hacker News) maps the options to its
 * API's parameters and its answers and failures to the shapes here.
 */
import type { ToolContext } from "toolreg/toolkit";

export const SOURCE_NAMES = ["wikipedia", "arxiv", "pubmed", "hackernews"] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

export const SORT_ORDERS = ["relevance", "date"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** What a search asks of one source. Dates are whole days, `YYYY-MM-DD`, in UTC. */
export interface SourceQuery {
  query: string;
  /** Results wanted from this source; an adapter never asks its API for more. */
  count: number;
  sort: SortOrder;
  from?: string | undefined;
  to?: string | undefined;
  /** The Wikipedia edition, e.g. `en`, `de`, `simple`. */
  language: string;
}

/** The identifiers a record carries, as its archive gives them. */
export interface RecordIds {
  arxiv?: string;
  pmid?: string;
  doi?: string;
  hackerNews?: string;
  wikipediaPageId?: number;
}

/** One record as a source found it, in our field names; text is the vendor's and untrusted. */
export interface SourceHit {
  title: string;
  url: string;
  authors: string[];
  /** When it was published (arXiv, PubMed, Hacker News) or last edited (Wikipedia), as the source says. */
  date?: string | undefined;
  snippet: string;
  ids: RecordIds;
  /** A second link worth having: an arXiv PDF, a Hacker News discussion. */
  related?: string | undefined;
}

export interface SourceAnswer {
  hits: SourceHit[];
  /** How many records matched in all, when the source says. */
  total?: number | undefined;
}

export interface ResearchSource {
  readonly name: SourceName;
  /** The archive's name as a person knows it, for messages: "PubMed". */
  readonly label: string;
  /** The endpoint searched, without a query: named on the untrusted results. */
  endpoint(query: SourceQuery): string;
  /** Why this source cannot answer `query` as asked (a filter it lacks), before any request; else undefined. */
  cannotAnswer?(query: SourceQuery): string | undefined;
  /** Runs one search. Throws a ToolFailure: rate limits as `upstream_rate_limited`, the rest `upstream_error`. */
  search(query: SourceQuery, context: ToolContext): Promise<SourceAnswer>;
}
