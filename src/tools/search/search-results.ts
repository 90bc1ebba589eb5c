/**
 * @module What `web_search` returns whatever the provider: results numbered in the vendor's order, one
 * per page (a URL given twice, or with another fragment, is one page), only http and https links (a
 * `javascript:` or `data:` link is no page to read), text cut to a bound, and the same text rendered for a
 * model to read inside the untrusted-content fence.
 */
import { z } from "zod";
import { PROVIDER_NAMES, type SearchHit } from "./search-provider.js";

const TITLE_CHARS = 300;
const SNIPPET_CHARS = 1000;
const PUBLISHED_CHARS = 100;
/** fetch_url takes URLs up to this length: a longer one is a result no tool could open. */
const URL_CHARS = 2048;

export const SearchResultSchema = z.object({
  position: z.int().min(1),
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  published: z.string().optional(),
});
export type SearchResult = z.output<typeof SearchResultSchema>;

export const SearchOutputSchema = z.object({
  provider: z.enum(PROVIDER_NAMES),
  query: z.string(),
  results: z.array(SearchResultSchema),
});
export type SearchOutput = z.output<typeof SearchOutputSchema>;

/** The first `count` distinct web pages among the vendor's hits, numbered from 1. */
export function normaliseResults(hits: readonly SearchHit[], count: number): SearchResult[] {
  const seen = new Set<string>();
  const results: SearchResult[] = [];
  for (const hit of hits) {
    if (results.length >= count) break;
    const url = webUrl(hit.url);
    if (url === undefined) continue;
    const page = new URL(url.href);
    page.hash = "";
    if (seen.has(page.href)) continue;
    seen.add(page.href);
    const published = oneLine(hit.published ?? "", PUBLISHED_CHARS);
    results.push({
      position: results.length + 1,
      title: oneLine(hit.title, TITLE_CHARS),
      url: url.href,
      snippet: oneLine(hit.snippet, SNIPPET_CHARS),
      ...(published ? { published } : {}),
    });
  }
  return results;
}

function webUrl(text: string): URL | undefined {
  if (text.length > URL_CHARS || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
}

/** Whitespace (line breaks included) collapsed, and a bound with an ellipsis that says text was cut. */
function oneLine(text: string, limit: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > limit ? `${line.slice(0, limit)}…` : line;
}

export interface RenderedSearch {
  label: string;
  query: string;
  results: readonly SearchResult[];
  /** What narrowed the search, as the model asked: "past week", "site nodejs.org". */
  filters: readonly string[];
  /** Set when the model asked for more than the deployment allows. */
  cappedAt?: number | undefined;
}

/** The results as a numbered list a model reads: title, URL, date when known, snippet. */
export function renderResults({ label, query, results, filters, cappedAt }: RenderedSearch): string {
  const narrowed = filters.length > 0 ? ` (${filters.join(", ")})` : "";
  const cap = cappedAt === undefined ? "" : `; this deployment returns at most ${cappedAt}`;
  if (results.length === 0) return `${label} found no results for "${query}"${narrowed}${cap}.`;
  const heading = `${label}: ${results.length} result${results.length === 1 ? "" : "s"} for "${query}"${narrowed}${cap}.`;
  const entries = results.map((result) =>
    [
      `${result.position}. ${result.title || "(no title)"}`,
      `   ${result.url}`,
      ...(result.published ? [`   published: ${result.published}`] : []),
      ...(result.snippet ? [`   ${result.snippet}`] : []),
    ].join("\n"),
  );
  return [heading, ...entries].join("\n\n");
}
