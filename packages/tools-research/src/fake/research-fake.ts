/**
 * @module One local HTTP server playing the four research APIs, each by its own paths, each answering in
 * its documented shape and failing the ways its documentation and users' reports show. Every request is
 * logged for assertions; a failure is queued for a source's next request with `next(source, scenario)`.
 *
 * Wikipedia, `GET /wikipedia/<lang>/w/api.php` (the `{lang}` root `http://host/wikipedia/{lang}`):
 * - search answer: https://www.mediawiki.org/wiki/API:Search (`query.search[]` with title, pageid, snippet,
 *   timestamp; `query.searchinfo.totalhits`), in `formatversion=2`: https://www.mediawiki.org/wiki/API:JSON_version_2;
 * - `mediawiki-error`, `maxlag`: HTTP 200 with `{"error":{"code","info","docref"}}` and a `MediaWiki-API-Error`
 *   header, https://www.mediawiki.org/wiki/API:Errors_and_warnings (maxlag with Retry-After:
 *   https://www.mediawiki.org/wiki/Manual:Maxlag_parameter); a missing srsearch is `nosrsearch` the same way;
 * - `rate-limited`: 429 with Retry-After, https://www.mediawiki.org/wiki/Wikimedia_APIs/Rate_limits (handled so
 *   by github.com/WikiEducationFoundation/WikiEduDashboard/pull/6817);
 * - `rate-limited-bare`: 429 with no Retry-After, as https://api.wikimedia.org/wiki/Documentation/Getting_started/Rate_limits
 *   documents the limit (the status alone, no header named);
 * - `wrong-shape`: JSON with no `query`, the `{"batchcomplete":true}` that action=query answers when no list
 *   module ran (https://www.mediawiki.org/wiki/API:Query);
 * - no User-Agent: 403, https://foundation.wikimedia.org/wiki/Policy:User-Agent_policy;
 * - `not-json`: an HTML error page where JSON was asked.
 *
 * arXiv, `GET /api/query`: https://info.arxiv.org/help/api/user-manual.html —
 * - the Atom feed (§3.3: `opensearch:totalResults`, entries with id, published, title, summary, authors,
 *   `arxiv:doi`, alternate and pdf links);
 * - `error-feed` / `error-feed-400`: §3.4's feed with one entry titled "Error" (sent with 200, as users report
 *   in github.com/K-Dense-AI/scientific-agent-skills paper-lookup/scripts/arxiv_atom.py, or with 400);
 * - `rate-exceeded` / `rate-exceeded-200`: the plain-text `Rate exceeded.` body arXiv throttles with (the same
 *   script's notes, which give no status: sent here with 503 and with 200);
 * - `rate-limited` / `rate-limited-retry-after`: a 429 with no body, as users of the API report it
 *   (github.com/lukasschwab/arxiv.py/issues/203, github.com/TideDra/zotero-arxiv-daily/issues/248); arXiv's terms
 *   (https://info.arxiv.org/help/api/tou.html) ask for one request every three seconds and name no header, so
 *   the Retry-After here is one a proxy or CDN in front of it adds (RFC 9110 §10.2.3,
 *   https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3);
 * - `bad-xml`: a cut feed; `doctype`: a feed declaring entities (arXiv sends none).
 *
 * PubMed, `GET /entrez/eutils/esearch.fcgi` and `esummary.fcgi`: https://www.ncbi.nlm.nih.gov/books/NBK25499/ —
 * - ESearch JSON (`esearchresult.count`, `idlist`), its `ERROR` for an empty term; ESummary JSON
 *   (`result.uids` and one record per uid, an unknown uid with `error`);
 * - `rate-limited`: 429 with `{"error":"API rate limit exceeded","api-key":…,"count":…,"limit":"3"}` and no
 *   Retry-After, https://www.ncbi.nlm.nih.gov/books/NBK25497/ (three a second without a key) and the body as
 *   github.com/biocommons/bioutils/issues/16 and github.com/ropensci/rentrez/issues/132 quote it;
 * - `rate-limited-retry-after`: the same 429 with a Retry-After, which NCBI documents nowhere: one a proxy or
 *   CDN in front of it adds (RFC 9110 §10.2.3, https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3);
 * - `bad-json`: a 200 whose JSON is cut off.
 *
 * Hacker News, `GET /api/v1/search` and `/api/v1/search_by_date`: https://hn.algolia.com/api —
 * - `hits[]` with objectID, title, url (null for Ask HN), author, points, num_comments, created_at, story_text;
 * - `rate-limited`: 429 `{"message":…,"status":429}` (10,000 requests an hour from one address), no Retry-After;
 * - `rate-limited-retry-after`: the same with a Retry-After, which neither that page nor Algolia's documents:
 *   one a proxy or CDN in front of it adds (RFC 9110 §10.2.3, https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3);
 * - `algolia-error`: 400 `{"message":…,"status":400}` for a bad numericFilters;
 * - `oversized`: 3 MB of hits (`hitsPerPage` goes to 1,000), more than any search answer the tool reads.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { SourceName } from "../research-source.js";
import {
  ARXIV_PAPERS,
  ARXIV_TOTAL,
  HN_STORIES,
  HN_TOTAL,
  PUBMED_ARTICLES,
  PUBMED_TOTAL,
  WIKI_PAGES,
  WIKI_TOTAL,
} from "./fixtures.js";

export interface Scenarios {
  wikipedia: "mediawiki-error" | "maxlag" | "rate-limited" | "rate-limited-bare" | "not-json" | "wrong-shape";
  arxiv:
    | "error-feed"
    | "error-feed-400"
    | "rate-exceeded"
    | "rate-exceeded-200"
    | "rate-limited"
    | "rate-limited-retry-after"
    | "bad-xml"
    | "doctype"
    | "empty";
  pubmed: "rate-limited" | "rate-limited-retry-after" | "esearch-error" | "bad-json";
  hackernews: "rate-limited" | "rate-limited-retry-after" | "algolia-error" | "bad-json" | "oversized";
}

export interface SeenRequest {
  source: SourceName | "unknown";
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** When it arrived, in ms since the epoch. */
  at: number;
}

interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as it is. */
  body: unknown;
}

export interface ResearchFake {
  url: string;
  /** The Wikipedia root to configure, with `{lang}` in its path. */
  wikipediaUrl: string;
  requests: SeenRequest[];
  next<S extends SourceName>(source: S, scenario: Scenarios[S]): void;
  close(): Promise<void>;
}

export interface ResearchFakeOptions {
  /**
   * Enforce NCBI's keyless limit as NCBI does: more than this many E-utilities requests from the address in
   * one second are answered with the 429 above. Off unless given, so tests that pace faster still run.
   */
  ncbiPerSecond?: number;
  /** The same with an `api_key`, which NCBI raises to ten a second; off unless given. */
  ncbiKeyedPerSecond?: number;
}

export async function startResearchFake(options: ResearchFakeOptions = {}): Promise<ResearchFake> {
  const requests: SeenRequest[] = [];
  const queued: { [S in SourceName]: Scenarios[S][] } = {
    wikipedia: [],
    arxiv: [],
    pubmed: [],
    hackernews: [],
  };
  const server = createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on("end", () => {
      const url = new URL(incoming.url ?? "/", "http://fake");
      const source = sourceOf(url.pathname);
      const request: SeenRequest = {
        source,
        method: incoming.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: incoming.headers,
        at: Date.now(),
      };
      requests.push(request);
      const ncbiLimit = request.query.api_key ? options.ncbiKeyedPerSecond : options.ncbiPerSecond;
      const overNcbiLimit =
        source === "pubmed" &&
        ncbiLimit !== undefined &&
        requests.filter((seen) => seen.source === "pubmed" && seen.at > request.at - 1000).length > ncbiLimit;
      if (overNcbiLimit) queued.pubmed.unshift("rate-limited");
      const reply = answer(request, source, queued);
      const json = typeof reply.body !== "string";
      outgoing.writeHead(reply.status, {
        ...(json ? { "content-type": "application/json; charset=utf-8" } : {}),
        ...reply.headers,
      });
      outgoing.end(json ? JSON.stringify(reply.body) : reply.body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    wikipediaUrl: `${url}/wikipedia/{lang}`,
    requests,
    next: (source, scenario) => (queued[source] as string[]).push(scenario),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function sourceOf(path: string): SeenRequest["source"] {
  if (/^\/wikipedia\/[^/]+\/w\/api\.php$/.test(path)) return "wikipedia";
  if (path === "/api/query") return "arxiv";
  if (path === "/entrez/eutils/esearch.fcgi" || path === "/entrez/eutils/esummary.fcgi") return "pubmed";
  if (path === "/api/v1/search" || path === "/api/v1/search_by_date") return "hackernews";
  return "unknown";
}

function answer(
  request: SeenRequest,
  source: SeenRequest["source"],
  queued: { [S in SourceName]: Scenarios[S][] },
): Reply {
  if (request.method !== "GET")
    return { status: 405, headers: { "content-type": "text/plain" }, body: "Method Not Allowed" };
  switch (source) {
    case "wikipedia":
      return wikipedia(request, queued.wikipedia.shift());
    case "arxiv":
      return arxiv(request, queued.arxiv.shift());
    case "pubmed":
      return pubmed(request, queued.pubmed.shift());
    case "hackernews":
      return hackerNews(request, queued.hackernews.shift());
    default:
      return { status: 404, headers: { "content-type": "text/plain" }, body: "Not Found" };
  }
}

function mediaWikiError(code: string, info: string, headers: Record<string, string> = {}): Reply {
  return {
    status: 200,
    headers: { "mediawiki-api-error": code, ...headers },
    body: {
      error: { code, info, docref: "See https://en.wikipedia.org/w/api.php for API usage." },
      servedby: "mw-api-ext.eqiad.main-7d9c",
    },
  };
}

const WIKIMEDIA_RATE_LIMITED: Reply = {
  status: 429,
  headers: { "content-type": "text/plain" },
  body: "Too many requests. Please see https://www.mediawiki.org/wiki/Wikimedia_APIs/Rate_limits",
};

function wikipedia(request: SeenRequest, scenario: Scenarios["wikipedia"] | undefined): Reply {
  if (!request.headers["user-agent"]) {
    return {
      status: 403,
      headers: { "content-type": "text/plain" },
      body: "Please set a user-agent and respect our robot policy https://w.wiki/4wJS.",
    };
  }
  switch (scenario) {
    case "mediawiki-error":
      return mediaWikiError("srsearch-text-disabled", "text search is disabled.");
    case "maxlag":
      return mediaWikiError("maxlag", "Waiting for 10.64.16.27: 7 seconds lagged.", {
        "retry-after": "5",
        "x-database-lag": "7",
      });
    case "rate-limited":
      return {
        ...WIKIMEDIA_RATE_LIMITED,
        headers: { ...WIKIMEDIA_RATE_LIMITED.headers, "retry-after": "30" },
      };
    case "rate-limited-bare":
      return WIKIMEDIA_RATE_LIMITED;
    case "wrong-shape":
      return { status: 200, body: { batchcomplete: true } };
    case "not-json":
      return {
        status: 200,
        headers: { "content-type": "text/html" },
        body: "<!DOCTYPE html><html><body>Wikimedia Error</body></html>",
      };
  }
  const { query } = request;
  if (query.action !== "query" || query.list !== "search")
    return mediaWikiError("badvalue", "Unrecognized value.");
  if (!query.srsearch) return mediaWikiError("nosrsearch", 'The "srsearch" parameter must be set.');
  const limit = Math.min(Number(query.srlimit ?? "10"), 500);
  const pages = query.srsearch.includes("nothing-matches") ? [] : WIKI_PAGES.slice(0, limit);
  return {
    status: 200,
    body: {
      batchcomplete: true,
      ...(pages.length === limit ? { continue: { sroffset: limit, continue: "-||" } } : {}),
      query: {
        searchinfo: { totalhits: pages.length === 0 ? 0 : WIKI_TOTAL },
        search: pages.map((page) => ({ ns: 0, ...page, size: 52_000, wordcount: 6_000 })),
      },
    },
  };
}

const ATOM_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">';

function escapeXml(text: string): string {
  return text
    .replace(/&(?!(lt|gt|amp);)/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

function atomFeed(total: number, entries: string[]): string {
  return [
    ATOM_HEAD,
    '<link href="http://arxiv.org/api/query" rel="self" type="application/atom+xml"/>',
    "<title>arXiv Query</title>",
    "<id>http://arxiv.org/api/fake</id>",
    "<updated>2024-01-10T00:00:00-05:00</updated>",
    `<opensearch:totalResults>${total}</opensearch:totalResults>`,
    "<opensearch:startIndex>0</opensearch:startIndex>",
    `<opensearch:itemsPerPage>${entries.length}</opensearch:itemsPerPage>`,
    ...entries,
    "</feed>",
  ].join("\n");
}

const ERROR_ENTRY = [
  "<entry>",
  "<id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345</id>",
  "<title>Error</title>",
  "<summary>incorrect id format for 1234.12345</summary>",
  "<updated>2007-10-12T00:00:00-04:00</updated>",
  '<link href="http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345" rel="alternate" type="text/html"/>',
  "<author><name>arXiv api core</name></author>",
  "</entry>",
].join("\n");

function arxiv(request: SeenRequest, scenario: Scenarios["arxiv"] | undefined): Reply {
  const atom = { "content-type": "application/atom+xml; charset=UTF-8" };
  switch (scenario) {
    case "error-feed":
      return { status: 200, headers: atom, body: atomFeed(1, [ERROR_ENTRY]) };
    case "error-feed-400":
      return { status: 400, headers: atom, body: atomFeed(1, [ERROR_ENTRY]) };
    case "rate-exceeded":
      return { status: 503, headers: { "content-type": "text/plain" }, body: "Rate exceeded." };
    case "rate-exceeded-200":
      return { status: 200, headers: { "content-type": "text/plain" }, body: "Rate exceeded." };
    case "rate-limited":
      return { status: 429, body: "" };
    case "rate-limited-retry-after":
      return { status: 429, headers: { "retry-after": "20" }, body: "" };
    case "bad-xml":
      return { status: 200, headers: atom, body: `${ATOM_HEAD}<entry><id>http://arxiv.org/abs/1` };
    case "doctype":
      return {
        status: 200,
        headers: atom,
        body: `<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><feed xmlns="http://www.w3.org/2005/Atom"><title>&b;</title></feed>`,
      };
    case "empty":
      return { status: 200, headers: atom, body: atomFeed(0, []) };
  }
  const { query } = request;
  const max = Number(query.max_results ?? "10");
  if (!query.search_query || !Number.isInteger(max) || max < 0) {
    return { status: 400, headers: atom, body: atomFeed(1, [ERROR_ENTRY]) };
  }
  const papers = ARXIV_PAPERS.slice(0, max);
  const entries = papers.map((paper) =>
    [
      "<entry>",
      `<id>http://arxiv.org/abs/${paper.id}</id>`,
      `<updated>${paper.published}</updated>`,
      `<published>${paper.published}</published>`,
      `<title>${escapeXml(paper.title)}</title>`,
      `<summary>${escapeXml(paper.summary)}</summary>`,
      ...paper.authors.map((name) => `<author><name>${escapeXml(name)}</name></author>`),
      ...(paper.doi
        ? [
            `<arxiv:doi>${paper.doi}</arxiv:doi>`,
            `<link title="doi" href="http://dx.doi.org/${paper.doi}" rel="related"/>`,
          ]
        : []),
      `<link href="http://arxiv.org/abs/${paper.id}" rel="alternate" type="text/html"/>`,
      `<link title="pdf" href="http://arxiv.org/pdf/${paper.id}" rel="related" type="application/pdf"/>`,
      '<arxiv:primary_category term="q-bio.GN" scheme="http://arxiv.org/schemas/atom"/>',
      '<category term="q-bio.GN" scheme="http://arxiv.org/schemas/atom"/>',
      "</entry>",
    ].join("\n"),
  );
  return { status: 200, headers: atom, body: atomFeed(ARXIV_TOTAL, entries) };
}

const NCBI_RATE_LIMITED: Reply = {
  status: 429,
  headers: { "x-ratelimit-limit": "3", "x-ratelimit-remaining": "0" },
  body: { error: "API rate limit exceeded", "api-key": "127.0.0.1", count: "4", limit: "3" },
};

function pubmed(request: SeenRequest, scenario: Scenarios["pubmed"] | undefined): Reply {
  switch (scenario) {
    case "rate-limited":
      return NCBI_RATE_LIMITED;
    case "rate-limited-retry-after":
      return { ...NCBI_RATE_LIMITED, headers: { ...NCBI_RATE_LIMITED.headers, "retry-after": "2" } };
    case "esearch-error":
      return {
        status: 200,
        body: {
          header: { type: "esearch", version: "0.3" },
          esearchresult: { ERROR: "Invalid query syntax" },
        },
      };
    case "bad-json":
      return {
        status: 200,
        headers: { "content-type": "application/json" },
        body: '{"header":{"type":"esearch"},"esearchresult":{"count":"1',
      };
  }
  const { query } = request;
  if (query.db !== "pubmed")
    return { status: 400, body: { error: `Invalid db name specified: ${query.db ?? ""}` } };
  if (request.path.endsWith("esearch.fcgi")) {
    if (!query.term) {
      return {
        status: 200,
        body: {
          header: { type: "esearch", version: "0.3" },
          esearchresult: { ERROR: "Empty term and query_key - nothing todo" },
        },
      };
    }
    const retmax = Number(query.retmax ?? "20");
    const ids = query.term.includes("nothing-matches")
      ? []
      : PUBMED_ARTICLES.slice(0, retmax).map((article) => article.uid);
    return {
      status: 200,
      body: {
        header: { type: "esearch", version: "0.3" },
        esearchresult: {
          count: String(ids.length === 0 ? 0 : PUBMED_TOTAL),
          retmax: String(ids.length),
          retstart: "0",
          idlist: ids,
          translationset: [],
          querytranslation: query.term,
        },
      },
    };
  }
  const uids = (query.id ?? "").split(",").filter(Boolean);
  const result: Record<string, unknown> = { uids };
  for (const uid of uids) {
    const article = PUBMED_ARTICLES.find((candidate) => candidate.uid === uid);
    result[uid] = article
      ? {
          uid,
          pubdate: article.pubdate,
          epubdate: "",
          source: article.fulljournalname.slice(0, 12),
          authors: article.authors.map((name) => ({ name, authtype: "Author", clusterid: "" })),
          lastauthor: article.authors.at(-1),
          title: article.title,
          volume: "390",
          pages: "1-10",
          fulljournalname: article.fulljournalname,
          elocationid: article.doi ? `doi: ${article.doi}` : "",
          articleids: [
            { idtype: "pubmed", idtypen: 1, value: uid },
            ...(article.doi ? [{ idtype: "doi", idtypen: 3, value: article.doi }] : []),
          ],
          sortpubdate: "2024/01/04 00:00",
        }
      : { uid, error: "cannot get document summary" };
  }
  return { status: 200, body: { header: { type: "esummary", version: "0.3" }, result } };
}

function hackerNews(request: SeenRequest, scenario: Scenarios["hackernews"] | undefined): Reply {
  switch (scenario) {
    case "rate-limited":
      return { status: 429, body: { message: "Too many requests", status: 429 } };
    case "rate-limited-retry-after":
      return {
        status: 429,
        headers: { "retry-after": "60" },
        body: { message: "Too many requests", status: 429 },
      };
    case "algolia-error":
      return { status: 400, body: { message: "invalid numericFilters: unexpected token", status: 400 } };
    case "bad-json":
      return { status: 200, headers: { "content-type": "application/json" }, body: '{"hits":[{"objectID":' };
    case "oversized":
      return {
        status: 200,
        body: { hits: [{ objectID: "1", title: "x".repeat(3 * 1024 * 1024) }], nbHits: 1 },
      };
  }
  const { query } = request;
  const perPage = Number(query.hitsPerPage ?? "20");
  const hits = (query.query ?? "").includes("nothing-matches") ? [] : HN_STORIES.slice(0, perPage);
  return {
    status: 200,
    body: {
      hits: hits.map((story) => ({
        ...story,
        _tags: ["story", `author_${story.author}`, `story_${story.objectID}`],
        created_at_i: Date.parse(story.created_at) / 1000,
        story_id: Number(story.objectID),
        _highlightResult: { title: { value: story.title, matchLevel: "full", matchedWords: [] } },
      })),
      nbHits: hits.length === 0 ? 0 : HN_TOTAL,
      page: 0,
      nbPages: 1,
      hitsPerPage: perPage,
      exhaustiveNbHits: true,
      query: query.query ?? "",
      params: new URLSearchParams(query).toString(),
      processingTimeMS: 3,
    },
  };
}
