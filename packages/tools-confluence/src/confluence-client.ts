/**
 * @module Confluence's REST API for one call, through toolreg's egress: JSON in and out, answers checked
 * against their documented shape, failures read by confluence-failure, and cursor pagination followed to
 * a bound. Why not confluence.js: it sends through axios, whose transport cannot be egress's pinned,
 * capped client, and every request must go through egress.
 */

import {
  type CollectedPages,
  callOptions,
  collectPages,
  type EgressClient,
  endpointUrl,
  type PageBound,
  parseAnswer,
  type ToolContext,
} from "toolreg/toolkit";
import type { z } from "zod";
import { CONFLUENCE, type ConflictReader, confluenceFailure } from "./confluence-failure.js";
import { nextLinkOf } from "./next-link.js";

/** A page's storage body is the largest answer: Confluence takes bodies up to 5 MB (POST /pages' 413). */
const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

/** Query parameters, each sent once; a list goes as Confluence documents it for that parameter. */
export type Query = Record<string, string | number | undefined>;

export interface ConfluenceRequest<T> {
  /** What was asked for, as a failure names it: "page 123". */
  what: string;
  method?: "GET" | "POST" | "PUT";
  /** A /wiki/... path below the API root. */
  path: string;
  query?: Query;
  json?: unknown;
  answer: z.ZodType<T>;
  onConflict?: ConflictReader;
}

export interface ConfluenceList<T> {
  what: string;
  path: string;
  query: Query;
  /** One page of the list: its items and its `_links` (where `next` is). */
  answer: z.ZodType<{
    results: T[];
    _links?: { next?: string | undefined; context?: string | undefined } | undefined;
  }>;
  bound: PageBound;
}

export interface ConfluenceCall {
  send<T>(request: ConfluenceRequest<T>): Promise<T>;
  list<T>(request: ConfluenceList<T>): Promise<CollectedPages<T>>;
}

export function createConfluenceClient(
  egress: EgressClient,
  apiRoot: string,
): (context: ToolContext) => ConfluenceCall {
  return (context) => {
    const fetchJson = async <T>(
      request: ConfluenceRequest<T>,
      url: string,
    ): Promise<{ answer: T; link?: string }> => {
      const body = request.json === undefined ? undefined : JSON.stringify(request.json);
      const response = await egress.request(url, {
        method: request.method ?? "GET",
        headers: {
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body }),
        maxResponseBytes: MAX_RESPONSE_BYTES,
        ...callOptions(context),
      });
      const parsed = jsonOf(response.body, response.truncated);
      if (response.status >= 400) throw confluenceFailure(response, parsed, request.what, request.onConflict);
      const answer = parseAnswer(CONFLUENCE, response, parsed, request.answer);
      return { answer, ...(response.headers.link ? { link: response.headers.link } : {}) };
    };
    return {
      async send(request) {
        return (await fetchJson(request, withQuery(endpointUrl(apiRoot, request.path), request.query)))
          .answer;
      },
      list({ what, path, query, answer, bound }) {
        return collectPages(
          (async function* () {
            let url: string | undefined = withQuery(endpointUrl(apiRoot, path), query);
            while (url !== undefined) {
              const page: { answer: z.output<typeof answer>; link?: string } = await fetchJson(
                { what, path, answer },
                url,
              );
              const next = nextLinkOf(page.answer._links, page.link);
              url = next === undefined ? undefined : endpointUrl(apiRoot, next);
              yield { items: page.answer.results, hasMore: url !== undefined };
            }
          })(),
          bound,
        );
      },
    };
  };
}

function withQuery(url: string, query: Query | undefined): string {
  if (query === undefined) return url;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) search.append(name, String(value));
  }
  // A list's commas go as commas (OpenAPI's form style, not exploded), not as %2C.
  const text = search.toString().replace(/%2C/gi, ",");
  return text === "" ? url : `${url}?${text}`;
}

function jsonOf(body: Buffer, truncated: boolean): unknown {
  if (truncated) return undefined;
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}
