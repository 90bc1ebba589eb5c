/**
 * @module Notion's API for one call, through the official @notionhq/client sending over toolreg's egress.
 *
 * The SDK takes a WHATWG-style `fetch`, so `egressFetch` slots in: every byte goes through egress's checks,
 * pinning and caps, and egress injects the integration token (the client is built with no `auth` and never
 * holds one). What the SDK would do behind the seam's back is switched off: it retries nothing (`retry:
 * false`; a write retried is a write sent twice, and the model is told when to come back after a 429), and
 * its log lines go to the call's logger. The SDK pins the API version it speaks: 5.26 sends
 * `Notion-Version: 2025-09-03`, where databases hold data sources and rows are queried per data source.
 * A client per call, because the fetch carries the call's signal, deadline and caller.
 */
import { Client, LogLevel, type Logger as NotionLogger } from "@notionhq/client";
import {
  type CollectedPages,
  collectPages,
  type EgressClient,
  egressFetch,
  type PageBound,
  type ToolContext,
  ToolFailure,
} from "toolreg/toolkit";
import { notionFailure, writeFailure } from "./notion-failure.js";

/** The API version the pinned SDK sends; stated once so the README and tests can name it. */
export const NOTION_VERSION = Client.defaultNotionVersion;

/** Notion's page_size ceiling on every list endpoint (developers.notion.com/reference/intro, Pagination). */
export const NOTION_PAGE_SIZE = 100;

/** One page of any of Notion's cursor-paginated lists. */
export interface NotionList<T> {
  results: T[];
  has_more: boolean;
  next_cursor: string | null;
  /** Search and data source queries: "incomplete" when Notion stopped short of every match. */
  request_status?: { type: "complete" | "incomplete"; incomplete_reason?: string };
}

/** What a list read collected; `incomplete` when Notion said it stopped short of every match. */
export type NotionListed<T> = CollectedPages<T> & { incomplete: boolean };

/** Notion as one call sees it. `what` names the thing asked for, so a failure says what it was about. */
export interface NotionCall {
  call<R>(what: string, send: (client: Client) => Promise<R>): Promise<R>;
  /**
   * A write: as `call`, but a failure that leaves the outcome unknown (timeout, 5xx) is not retryable and
   * says what to `check` first (see writeFailure).
   */
  write<R>(what: string, check: string, send: (client: Client) => Promise<R>): Promise<R>;
  /** A cursor-paginated endpoint followed by `next_cursor` up to `maxItems`, asking for no more than it needs. */
  list<T>(
    what: string,
    page: (client: Client, cursor: string | undefined, pageSize: number) => Promise<NotionList<T>>,
    maxItems: number,
  ): Promise<NotionListed<T>>;
}

export interface NotionClientOptions {
  /** The API root, without /v1 and without a trailing slash: https://api.notion.com. */
  baseUrl: string;
  egress: EgressClient;
}

export function createNotionClient({
  baseUrl,
  egress,
}: NotionClientOptions): (context: ToolContext) => NotionCall {
  return (context) => {
    const client = new Client({
      baseUrl,
      fetch: egressFetch(egress, context),
      retry: false,
      // Egress holds the call to its deadline; the SDK's own timer is set just past it (context.deadline is
      // epoch milliseconds on the same clock as Date.now), and capped so no request waits longer than a minute.
      timeoutMs: Math.min(60_000, Math.max(1000, context.deadline - Date.now() + 1000)),
      logLevel: LogLevel.WARN,
      logger: callLogger(context),
    });
    const guard = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        throw notionFailure(error, what);
      }
    };
    return {
      call: (what, send) => guard(what, () => send(client)),
      write: async (what, check, send) => {
        try {
          return await guard(what, () => send(client));
        } catch (error) {
          throw ToolFailure.isInstance(error) ? writeFailure(error, what, check) : error;
        }
      },
      list: (what, page, maxItems) =>
        guard(what, async () => {
          let incomplete = false;
          const collected = await collectPages(
            (async function* () {
              let cursor: string | undefined;
              let taken = 0;
              while (true) {
                const size = Math.min(NOTION_PAGE_SIZE, Math.max(1, maxItems - taken));
                const answer = await page(client, cursor, size);
                taken += answer.results.length;
                incomplete ||= answer.request_status?.type === "incomplete";
                const next = answer.has_more ? answer.next_cursor : null;
                yield { items: answer.results, hasMore: next !== null };
                if (next === null) return;
                cursor = next;
              }
            })(),
            pageBound(maxItems),
          );
          return { ...collected, incomplete };
        }),
    };
  };
}

/**
 * Requests a list may take: enough pages for `maxItems`, and two spare, because Notion may answer with fewer
 * results than asked (search leaves out what the integration may not see) — never an unbounded walk.
 */
function pageBound(maxItems: number): PageBound {
  return { maxItems, maxPages: Math.ceil(maxItems / NOTION_PAGE_SIZE) + 2 };
}

/** The SDK's logger, speaking through the call's: warnings and errors only, never a request body. */
function callLogger(context: ToolContext): NotionLogger {
  return (level, message, extraInfo) => {
    if (level !== LogLevel.WARN && level !== LogLevel.ERROR) return;
    context.logger[level === LogLevel.WARN ? "warn" : "error"]({ toolkit: "notion", ...extraInfo }, message);
  };
}
