/**
 * @module What `research_search` returns: the results grouped by source, numbered within each in the
 * source's order, one per link (only http and https), text bounded; and one report per source asked —
 * answered, failed (with its code, whether a retry may help and when), or left out and why — so a partial
 * answer says what is missing. The same, rendered for a model to read inside the untrusted-content fence.
 */
import { z } from "zod";
import { SORT_ORDERS, SOURCE_NAMES, type SourceAnswer, type SourceName } from "./research-source.js";

/** fetch_url takes URLs up to this length: a longer one is a link no tool could open. */
const URL_CHARS = 2048;

export const SOURCE_LABELS: Readonly<Record<SourceName, string>> = {
  wikipedia: "Wikipedia",
  arxiv: "arXiv",
  pubmed: "PubMed",
  hackernews: "Hacker News",
};

export const ResearchResultSchema = z.object({
  source: z.enum(SOURCE_NAMES),
  position: z.int().min(1),
  title: z.string(),
  url: z.string(),
  authors: z.array(z.string()),
  date: z.string().optional(),
  snippet: z.string(),
  ids: z.object({
    arxiv: z.string().optional(),
    pmid: z.string().optional(),
    doi: z.string().optional(),
    hackerNews: z.string().optional(),
    wikipediaPageId: z.int().optional(),
  }),
  related: z.string().optional(),
});
export type ResearchResult = z.output<typeof ResearchResultSchema>;

export const SourceReportSchema = z.object({
  source: z.enum(SOURCE_NAMES),
  status: z.enum(["answered", "failed", "skipped"]),
  endpoint: z.string(),
  /** Results returned from this source. */
  count: z.int().nonnegative(),
  /** Records that matched in all, when the source says. */
  total: z.int().nonnegative().optional(),
  error: z
    .object({
      code: z.string(),
      message: z.string(),
      retryable: z.boolean(),
      retryAfterMs: z.int().nonnegative().optional(),
    })
    .optional(),
  /** Why a skipped source was left out. */
  reason: z.string().optional(),
});
export type SourceReport = z.output<typeof SourceReportSchema>;

export const ResearchOutputSchema = z.object({
  query: z.string(),
  sort: z.enum(SORT_ORDERS),
  from: z.string().optional(),
  to: z.string().optional(),
  /** Set when more results were asked for than the deployment gives per source. */
  cappedAt: z.int().optional(),
  results: z.array(ResearchResultSchema),
  sources: z.array(SourceReportSchema),
});
export type ResearchOutput = z.output<typeof ResearchOutputSchema>;

/** A source's hits as results: web links only, one per URL, the first `count`, numbered from 1. */
export function resultsOf(source: SourceName, answer: SourceAnswer, count: number): ResearchResult[] {
  const seen = new Set<string>();
  const results: ResearchResult[] = [];
  for (const hit of answer.hits) {
    if (results.length >= count) break;
    const url = webUrl(hit.url);
    if (url === undefined || seen.has(url)) continue;
    seen.add(url);
    const related = hit.related === undefined ? undefined : webUrl(hit.related);
    results.push({
      source,
      position: results.length + 1,
      title: hit.title,
      url,
      authors: hit.authors,
      ...(hit.date ? { date: hit.date } : {}),
      snippet: hit.snippet,
      ids: hit.ids,
      ...(related ? { related } : {}),
    });
  }
  return results;
}

function webUrl(text: string): string | undefined {
  if (text.length > URL_CHARS || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
}

/** The answer as a model reads it: a heading per source, then its numbered results or why it has none. */
export function renderResearch(output: ResearchOutput): string {
  const narrowed = [
    ...(output.sort === "date" ? ["newest first"] : []),
    ...(output.from ? [`from ${output.from}`] : []),
    ...(output.to ? [`to ${output.to}`] : []),
  ];
  const cap =
    output.cappedAt === undefined ? "" : `; this deployment returns at most ${output.cappedAt} per source`;
  const heading = `Research results for "${output.query}"${narrowed.length > 0 ? ` (${narrowed.join(", ")})` : ""}${cap}.`;
  const sections = output.sources.map((report) => {
    const label = SOURCE_LABELS[report.source];
    if (report.status === "skipped") return `${label}: left out — ${report.reason}.`;
    if (report.status === "failed") {
      const error = report.error;
      const retry = error?.retryable
        ? `retry may work${error.retryAfterMs !== undefined ? ` in ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s` : ""}`
        : "retrying will not help";
      return `${label}: failed (${error?.code}; ${retry}) — ${error?.message}`;
    }
    const mine = output.results.filter((result) => result.source === report.source);
    const of = report.total !== undefined && report.total > mine.length ? ` of ${report.total}` : "";
    if (mine.length === 0) return `${label}: no results.`;
    const entries = mine.map((result) => renderResult(result));
    return [`${label}: ${mine.length}${of} result${mine.length === 1 ? "" : "s"}`, ...entries].join("\n\n");
  });
  return [heading, ...sections].join("\n\n");
}

function renderResult(result: ResearchResult): string {
  const ids = [
    ...(result.ids.arxiv ? [`arXiv ${result.ids.arxiv}`] : []),
    ...(result.ids.pmid ? [`PMID ${result.ids.pmid}`] : []),
    ...(result.ids.doi ? [`DOI ${result.ids.doi}`] : []),
  ];
  const authors =
    result.authors.length > 3 ? `${result.authors.slice(0, 3).join(", ")} et al.` : result.authors.join(", ");
  const byline = [...(authors ? [`by ${authors}`] : []), ...(result.date ? [result.date] : []), ...ids];
  return [
    `${result.position}. ${result.title || "(no title)"}`,
    `   ${result.url}`,
    ...(byline.length > 0 ? [`   ${byline.join(" · ")}`] : []),
    ...(result.related ? [`   also: ${result.related}`] : []),
    ...(result.snippet ? [`   ${result.snippet}`] : []),
  ].join("\n");
}
