/**
 * @module Wikipedia through the MediaWiki Action API's full-text search
 * (https://www.mediawiki.org/wiki/API:Search): `GET /w/api.php?action=query&list=search` on the edition's
 * own host, `<lang>.wikipedia.org`. MediaWiki reports most failures with HTTP 200 and `{"error":{code,info}}`
 * (https://www.mediawiki.org/wiki/API:Errors_and_warnings), so the body is read, not only the status. An
 * article has no publication date and Wikipedia search no date filter: a date range leaves Wikipedia out
 * (said in the answer), and `sort: "date"` orders by last edit (`srsort=last_edit_desc`, CirrusSearch).
 */
import {
  type EgressResponse,
  endpointUrl,
  shortDetail,
  ToolFailure,
  upstreamRateLimited,
} from "toolreg/toolkit";
import { z } from "zod";
import { plainText } from "../plain-text.js";
import type { ResearchSource } from "../research-source.js";
import { getJson, type SourceClient } from "../source-http.js";

/** Each edition on its own host; `{lang}` is the edition's code. */
export const WIKIPEDIA_BASE_URL = "https://{lang}.wikipedia.org";
const API_PATH = "/w/api.php";
const TITLE_CHARS = 300;
const SNIPPET_CHARS = 600;

const MediaWikiError = z.object({
  error: z.object({ code: z.string(), info: z.string().optional() }),
});

const SearchAnswer = z.object({
  query: z.object({
    searchinfo: z.object({ totalhits: z.int().nonnegative() }).optional(),
    search: z.array(
      z.object({
        title: z.string(),
        pageid: z.int(),
        snippet: z.string().optional(),
        timestamp: z.string().optional(),
      }),
    ),
  }),
});

/** Codes that say MediaWiki is busy rather than that the request is wrong. */
const BUSY = new Set(["maxlag", "readonly", "ratelimited"]);

export function createWikipediaSource(client: SourceClient, baseUrl: string): ResearchSource {
  const root = (language: string) => baseUrl.replace("{lang}", language).replace(/\/+$/, "");
  return {
    name: "wikipedia",
    label: client.label,
    endpoint: (query) => endpointUrl(root(query.language), API_PATH),
    cannotAnswer(query) {
      if (query.from !== undefined || query.to !== undefined) {
        return "Wikipedia articles carry no publication date and its search has no date filter, so a date range leaves it out";
      }
      return undefined;
    },
    async search(query, context) {
      const url = new URL(endpointUrl(root(query.language), API_PATH));
      const parameters: Record<string, string> = {
        action: "query",
        list: "search",
        srsearch: query.query,
        srlimit: String(query.count),
        srprop: "snippet|timestamp",
        srinfo: "totalhits",
        format: "json",
        formatversion: "2",
        ...(query.sort === "date" ? { srsort: "last_edit_desc" } : {}),
      };
      for (const [key, value] of Object.entries(parameters)) url.searchParams.set(key, value);
      const { answer } = await getJson(client, url.href, context, SearchAnswer, (response, body) => {
        const error = MediaWikiError.safeParse(body);
        return error.success ? mediaWikiFailure(client, response, error.data.error) : undefined;
      });
      return {
        total: answer.query.searchinfo?.totalhits,
        hits: answer.query.search.map((page) => ({
          title: plainText(page.title, TITLE_CHARS),
          url: `${root(query.language)}/wiki/${articlePath(page.title)}`,
          authors: [],
          date: page.timestamp,
          snippet: plainText(page.snippet ?? "", SNIPPET_CHARS),
          ids: { wikipediaPageId: page.pageid },
        })),
      };
    },
  };
}

/** The legacy error format (the default): `{"error":{"code":…,"info":…,"docref":…}}`, whatever the status. */
function mediaWikiFailure(
  client: SourceClient,
  response: EgressResponse,
  error: { code: string; info?: string | undefined },
): ToolFailure {
  const detail = shortDetail(error.info);
  const said = `${error.code}${detail ? `: ${detail}` : ""}`;
  const details = { status: response.status, mediawikiError: error.code };
  if (error.code === "ratelimited") {
    return upstreamRateLimited(`${client.label} is rate limiting these searches (${said})`, { details });
  }
  if (BUSY.has(error.code) || error.code.startsWith("internal_api_error")) {
    return new ToolFailure(
      "upstream_error",
      `${client.label} is busy or failed (${said}); a retry may work`,
      {
        retryable: true,
        details,
      },
    );
  }
  return new ToolFailure(
    "upstream_error",
    `${client.label} refused the search (${said}); change the query or the language`,
    { retryable: false, details },
  );
}

/**
 * A title as MediaWiki writes it in a link: spaces as underscores, percent-encoded except the characters
 * its own encoder (wfUrlencode) leaves as they are, so `AC/DC` is `/wiki/AC/DC` and `C++` `/wiki/C%2B%2B`.
 */
export function articlePath(title: string): string {
  return encodeURIComponent(title.replace(/ /g, "_")).replace(/%(2F|3A|40|24|2C|3B)/gi, (escaped) =>
    decodeURIComponent(escaped),
  );
}
