/**
 * @module PubMed through NCBI's E-utilities (https://www.ncbi.nlm.nih.gov/books/NBK25499/): ESearch
 * (`esearch.fcgi`) finds the PMIDs, ESummary (`esummary.fcgi`) reads their titles, authors, dates, journal and
 * DOI, both as JSON (`retmode=json`). Every request names the tool and, when configured, a contact email, as
 * NCBI's usage guidelines ask (https://www.ncbi.nlm.nih.gov/books/NBK25497/); without an API key NCBI takes
 * three requests a second from one address, ten with one (`api_key`, placed by egress when the deployment
 * configures it, never seen here), and answers more with 429 and
 * `{"error":"API rate limit exceeded",…}` and no Retry-After (the limit is per second), so the pacer spaces them.
 * ESummary carries no abstract: the snippet is the journal citation.
 */
import {
  type EgressResponse,
  endpointUrl,
  shortDetail,
  ToolFailure,
  upstreamRateLimited,
} from "toolreg/toolkit";
import { z } from "zod";
import { oneLine } from "../plain-text.js";
import type { RequestPacer } from "../request-pacer.js";
import type { ResearchSource, SourceHit, SourceQuery } from "../research-source.js";
import { getJson, type SourceClient, statusFailure } from "../source-http.js";

export const PUBMED_BASE_URL = "https://eutils.ncbi.nlm.nih.gov";
const ESEARCH = "/entrez/eutils/esearch.fcgi";
const ESUMMARY = "/entrez/eutils/esummary.fcgi";
/** Where a PMID's public page lives, whichever E-utilities host answered. */
const ARTICLE_URL = "https://pubmed.ncbi.nlm.nih.gov";
const TITLE_CHARS = 300;
const MAX_AUTHORS = 20;
/** NCBI's window is one second (the usage guidelines), so a wait of a second is what its 429 means. */
const NCBI_WINDOW_MS = 1000;

const SearchAnswer = z.object({
  esearchresult: z.object({
    count: z.string().optional(),
    idlist: z.array(z.string().regex(/^\d{1,12}$/)).optional(),
    ERROR: z.string().optional(),
  }),
});

const Summary = z.object({
  uid: z.string(),
  title: z.string().optional(),
  pubdate: z.string().optional(),
  sortpubdate: z.string().optional(),
  source: z.string().optional(),
  fulljournalname: z.string().optional(),
  authors: z.array(z.object({ name: z.string() })).optional(),
  articleids: z.array(z.object({ idtype: z.string(), value: z.string() })).optional(),
  error: z.string().optional(),
});

const SummaryAnswer = z.object({
  error: z.string().optional(),
  result: z
    .object({ uids: z.array(z.string()) })
    .catchall(z.unknown())
    .optional(),
});

const RateLimitBody = z.object({
  error: z.string(),
  count: z.string().optional(),
  limit: z.string().optional(),
});

export interface PubmedSetup {
  /** Named in every request as NCBI asks (`tool`). */
  tool: string;
  /** The deployment's contact (`email`), when configured. */
  email?: string | undefined;
}

export function createPubmedSource(
  client: SourceClient,
  baseUrl: string,
  pacer: RequestPacer,
  setup: PubmedSetup,
): ResearchSource {
  const identify = (url: URL) => {
    url.searchParams.set("tool", setup.tool);
    if (setup.email) url.searchParams.set("email", setup.email);
    return url;
  };
  return {
    name: "pubmed",
    label: client.label,
    endpoint: () => endpointUrl(baseUrl, ESEARCH),
    async search(query, context) {
      const searchUrl = identify(new URL(endpointUrl(baseUrl, ESEARCH)));
      for (const [key, value] of Object.entries(searchParameters(query)))
        searchUrl.searchParams.set(key, value);
      await pacer.turn(context);
      const searched = await getJson(client, searchUrl.href, context, SearchAnswer, readNcbiError(client));
      const found = searched.response;
      const search = searched.answer.esearchresult;
      if (search.ERROR !== undefined) {
        throw new ToolFailure(
          "upstream_error",
          `${client.label} refused the search: ${shortDetail(search.ERROR)}; rephrase it`,
          {
            retryable: false,
            details: { status: found.status },
          },
        );
      }
      const ids = (search.idlist ?? []).slice(0, query.count);
      const total = Number(search.count);
      if (ids.length === 0) return { hits: [], total: Number.isInteger(total) ? total : undefined };
      const summaryUrl = identify(new URL(endpointUrl(baseUrl, ESUMMARY)));
      summaryUrl.searchParams.set("db", "pubmed");
      summaryUrl.searchParams.set("id", ids.join(","));
      summaryUrl.searchParams.set("retmode", "json");
      await pacer.turn(context);
      const { answer: summary, response: summarised } = await getJson(
        client,
        summaryUrl.href,
        context,
        SummaryAnswer,
        readNcbiError(client),
      );
      if (summary.error !== undefined || summary.result === undefined) {
        throw new ToolFailure(
          "upstream_error",
          `${client.label} could not summarise the articles it found: ${shortDetail(summary.error) ?? "no result"}`,
          { retryable: true, details: { status: summarised.status } },
        );
      }
      const result = summary.result;
      return {
        total: Number.isInteger(total) ? total : undefined,
        hits: ids.flatMap((id) => hitOf(result[id])),
      };
    },
  };
}

function searchParameters(query: SourceQuery): Record<string, string> {
  const dated = query.from !== undefined || query.to !== undefined;
  return {
    db: "pubmed",
    term: query.query,
    retmax: String(query.count),
    retmode: "json",
    sort: query.sort === "date" ? "pub_date" : "relevance",
    // ESearch takes a range only with both ends, as YYYY/MM/DD; datetype pdat is the publication date.
    ...(dated
      ? {
          datetype: "pdat",
          mindate: (query.from ?? "1800-01-01").replace(/-/g, "/"),
          maxdate: (query.to ?? "3000-12-31").replace(/-/g, "/"),
        }
      : {}),
  };
}

function hitOf(value: unknown): SourceHit[] {
  const parsed = Summary.safeParse(value);
  if (!parsed.success || parsed.data.error !== undefined) return [];
  const article = parsed.data;
  const ids = new Map((article.articleids ?? []).map((id) => [id.idtype, id.value]));
  const doi = ids.get("doi");
  const journal = article.fulljournalname ?? article.source ?? "";
  return [
    {
      title: oneLine(article.title ?? "", TITLE_CHARS),
      url: `${ARTICLE_URL}/${article.uid}/`,
      authors: (article.authors ?? []).map((author) => oneLine(author.name, 200)).slice(0, MAX_AUTHORS),
      date: article.pubdate || undefined,
      snippet: oneLine([journal, article.pubdate].filter(Boolean).join(", "), 400),
      ids: { pmid: article.uid, ...(doi ? { doi } : {}) },
    },
  ];
}

/** NCBI's 429 names the limit it counted against; any other error status is read as its status says. */
const readNcbiError =
  (client: SourceClient) =>
  (response: EgressResponse, json: unknown): ToolFailure | undefined =>
    response.status >= 400 ? ncbiFailure(client, response, json) : undefined;

function ncbiFailure(client: SourceClient, response: EgressResponse, json: unknown): ToolFailure {
  const body = RateLimitBody.safeParse(json);
  if (response.status === 429) {
    const counted =
      body.success && body.data.limit
        ? ` (${body.data.count ?? "?"} requests against a limit of ${body.data.limit} a second)`
        : "";
    const failure = statusFailure(client, response, body.success ? shortDetail(body.data.error) : undefined);
    if (failure.retryAfterMs !== undefined) return failure;
    return upstreamRateLimited(`${client.label} is rate limiting this deployment's address${counted}`, {
      retryAfterMs: NCBI_WINDOW_MS,
      details: { status: 429, ...(body.success && body.data.limit ? { limit: body.data.limit } : {}) },
    });
  }
  return statusFailure(client, response, body.success ? shortDetail(body.data.error) : undefined);
}
