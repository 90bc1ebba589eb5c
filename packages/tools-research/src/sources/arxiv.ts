/**
 * @module arXiv through its query API (https://info.arxiv.org/help/api/user-manual.html): `GET /api/query`
 * answers an Atom 1.0 feed, one `<entry>` per e-print with its abstract as `<summary>`, its authors, the
 * `arxiv:doi` when the authors gave one, and links to the abstract page and the PDF. A bad query is answered
 * with a feed whose single entry is titled "Error" (§3.4), which is a failure, not a hit. The feed is read
 * with fast-xml-parser, and a feed declaring a DOCTYPE is refused before parsing: arXiv sends none, and
 * refusing it leaves no entity a hostile answer could define and expand. arXiv asks for one request every
 * three seconds (https://info.arxiv.org/help/api/tou.html), which the pacer keeps.
 */

import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  type EgressResponse,
  endpointUrl,
  retryAfterMs,
  shortDetail,
  ToolFailure,
  upstreamRateLimited,
} from "toolreg/toolkit";
import { oneLine } from "../plain-text.js";
import type { RequestPacer } from "../request-pacer.js";
import type { ResearchSource, SourceHit, SourceQuery } from "../research-source.js";
import { bodyText, getFrom, type SourceClient, statusFailure } from "../source-http.js";

export const ARXIV_BASE_URL = "https://export.arxiv.org";
const API_PATH = "/api/query";
const TITLE_CHARS = 300;
const SNIPPET_CHARS = 600;
const MAX_AUTHORS = 20;
/** arXiv's query syntax joins terms with AND, OR and ANDNOT; a user's words are searched as words. */
const OPERATORS = new Set(["and", "or", "andnot"]);
const MAX_TERMS = 20;
/** The spacing arXiv's terms ask for, as the wait after it says its rate is exceeded. */
const ARXIV_WAIT_MS = 3000;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: { enabled: true, maxEntityCount: 0 },
  isArray: (name) => ["entry", "author", "link", "category"].includes(name),
});

type Node = Record<string, unknown>;

export function createArxivSource(
  client: SourceClient,
  baseUrl: string,
  pacer: RequestPacer,
): ResearchSource {
  const endpoint = endpointUrl(baseUrl, API_PATH);
  return {
    name: "arxiv",
    label: client.label,
    endpoint: () => endpoint,
    cannotAnswer(query) {
      return searchTerms(query.query).length === 0
        ? "the query has no words arXiv can search (letters or digits)"
        : undefined;
    },
    async search(query, context) {
      const url = new URL(endpoint);
      url.searchParams.set("search_query", searchQuery(query));
      url.searchParams.set("start", "0");
      url.searchParams.set("max_results", String(query.count));
      url.searchParams.set("sortBy", query.sort === "date" ? "submittedDate" : "relevance");
      url.searchParams.set("sortOrder", "descending");
      await pacer.turn(context);
      const response = await getFrom(client, url.href, "application/atom+xml", context);
      const text =
        response.status < 400
          ? bodyText(client, response)
          : response.truncated
            ? ""
            : response.body.toString("utf8");
      // Its throttle answers plain text, whatever the status.
      if (/^\s*Rate exceeded/i.test(text)) {
        throw upstreamRateLimited(`${client.label} says its request rate is exceeded`, {
          retryAfterMs: retryAfterMs(response.headers["retry-after"]) ?? ARXIV_WAIT_MS,
          details: { status: response.status },
        });
      }
      // arXiv answers a bad query with its error feed, under 200 or 400 alike.
      const feed = response.status < 500 ? readFeed(client, response, text) : undefined;
      const entries = feed ? nodes(feed.entry) : [];
      const error = entries.length === 1 ? errorEntry(entries[0] as Node) : undefined;
      if (error !== undefined) {
        throw new ToolFailure("upstream_error", `${client.label} refused the query: ${error}; rephrase it`, {
          retryable: false,
          details: { status: response.status, arxivError: true },
        });
      }
      if (response.status >= 400) throw statusFailure(client, response, shortDetail(text));
      if (feed === undefined) throw malformed(client, response, "no Atom feed");
      const total = Number(textOf(feed.totalResults));
      return {
        total: Number.isInteger(total) ? total : undefined,
        hits: entries.flatMap((entry) => hitOf(entry as Node)),
      };
    },
  };
}

/** The user's words as arXiv terms: `all:word` joined with AND, phrases and operators taken apart. */
function searchQuery(query: SourceQuery): string {
  const terms = searchTerms(query.query).map((term) => `all:${term}`);
  const window =
    query.from !== undefined || query.to !== undefined
      ? [
          `submittedDate:[${stamp(query.from ?? "1991-01-01", "0000")} TO ${stamp(query.to ?? today(), "2359")}]`,
        ]
      : [];
  return [...terms, ...window].join(" AND ");
}

function searchTerms(query: string): string[] {
  return (query.match(/[\p{L}\p{N}]+(?:[.-][\p{L}\p{N}]+)*/gu) ?? [])
    .filter((word) => !OPERATORS.has(word.toLowerCase()))
    .slice(0, MAX_TERMS);
}

/** `2024-03-01` and `0000` → `202403010000`, the form arXiv's submittedDate range takes. */
function stamp(day: string, time: string): string {
  return `${day.replace(/-/g, "")}${time}`;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The parsed `<feed>`, or undefined when the body holds none; malformed XML is a failure. */
function readFeed(client: SourceClient, response: EgressResponse, text: string): Node | undefined {
  if (text.trim() === "") return undefined;
  if (/<!DOCTYPE/i.test(text))
    throw malformed(client, response, "it declares a DOCTYPE, which arXiv never sends");
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    if (response.status >= 400) return undefined;
    throw malformed(client, response, `${valid.err.msg} at line ${valid.err.line}`);
  }
  const feed = (parser.parse(text) as Node).feed;
  if (typeof feed !== "object" || feed === null) {
    if (response.status >= 400) return undefined;
    throw malformed(client, response, "no <feed> element");
  }
  return feed as Node;
}

function malformed(client: SourceClient, response: EgressResponse, why: string): ToolFailure {
  return new ToolFailure(
    "upstream_error",
    `${client.label} answered ${response.status} with XML that is not its Atom feed (${shortDetail(why)}); the API may be failing or have changed`,
    { retryable: false, details: { status: response.status } },
  );
}

/** §3.4: the error entry's id is under http://arxiv.org/api/errors and its title is "Error". */
function errorEntry(entry: Node): string | undefined {
  const id = textOf(entry.id);
  if (textOf(entry.title) !== "Error" || !/\/api\/errors/.test(id)) return undefined;
  return shortDetail(textOf(entry.summary)) ?? "no reason given";
}

function hitOf(entry: Node): SourceHit[] {
  const id = textOf(entry.id);
  const arxivId = /arxiv\.org\/abs\/(.+)$/.exec(id)?.[1];
  if (arxivId === undefined) return [];
  const links = nodes(entry.link);
  const page = links.find((link) => link["@_rel"] === "alternate" && typeof link["@_href"] === "string");
  const pdf = links.find((link) => link["@_title"] === "pdf" && typeof link["@_href"] === "string");
  const doi = textOf(entry.doi);
  return [
    {
      title: oneLine(textOf(entry.title), TITLE_CHARS),
      url: String(page?.["@_href"] ?? `https://arxiv.org/abs/${arxivId}`),
      authors: nodes(entry.author)
        .map((author) => oneLine(textOf(author.name), 200))
        .filter((name) => name.length > 0)
        .slice(0, MAX_AUTHORS),
      date: textOf(entry.published) || undefined,
      snippet: oneLine(textOf(entry.summary), SNIPPET_CHARS),
      ids: { arxiv: arxivId, ...(doi ? { doi } : {}) },
      ...(pdf ? { related: String(pdf["@_href"]) } : {}),
    },
  ];
}

function nodes(value: unknown): Node[] {
  return Array.isArray(value)
    ? value.filter((item): item is Node => typeof item === "object" && item !== null)
    : [];
}

/** An element's text, whether the parser gave a string or an object with `#text` (it had attributes). */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null && typeof (value as Node)["#text"] === "string") {
    return (value as Node)["#text"] as string;
  }
  return "";
}
