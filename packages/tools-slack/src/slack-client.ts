/**
 * @module Slack's Web API for one call, through Slack's official SDK sending over toolreg's egress.
 *
 * Why the SDK can send through egress: @slack/web-api 8 replaced axios with a WHATWG `fetch` option (7.x
 * took only an axios adapter), so `egressFetch` slots in as it does for Octokit. Every byte goes through
 * egress's checks, pinning and caps, and the credential is injected by egress: the client is built with
 * no token and never holds one. What the SDK would otherwise do behind the seam's back is switched off: it
 * retries nothing (a post retried is a post sent twice; retries are the seam's), it does not sleep through
 * a 429 (the model is told when to come back), it follows no absolute URL, and its log lines go to the
 * call's logger. A client per call, because the SDK takes its fetch at construction and the fetch carries
 * the call's signal, deadline and caller.
 */
import { LogLevel, type Logger as SlackLogger, type WebAPICallResult, WebClient } from "@slack/web-api";
import {
  type CollectedPages,
  collectPages,
  type EgressClient,
  egressFetch,
  type PageBound,
  type ToolContext,
} from "toolreg/toolkit";
import { slackFailure } from "./slack-failure.js";

/** Slack as one call sees it. `what` names the thing asked for, so a failure says what it was about. */
export interface SlackCall {
  /** Runs one Web API method with this call's client. */
  call<R extends WebAPICallResult>(what: string, send: (client: WebClient) => Promise<R>): Promise<R>;
  /** A cursor-paginated method followed by `response_metadata.next_cursor` up to `bound`. */
  list<T>(
    what: string,
    method: string,
    args: Record<string, unknown>,
    itemsOf: (page: WebAPICallResult) => readonly T[] | undefined,
    bound: PageBound,
  ): Promise<CollectedPages<T>>;
}

export interface SlackClientOptions {
  /** The Web API root, without a trailing slash: https://slack.com/api. */
  baseUrl: string;
  egress: EgressClient;
}

export function createSlackClient({
  baseUrl,
  egress,
}: SlackClientOptions): (context: ToolContext) => SlackCall {
  return (context) => {
    const client = new WebClient(undefined, {
      slackApiUrl: `${baseUrl}/`,
      fetch: egressFetch(egress, context),
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      allowAbsoluteUrls: false,
      // The SDK's own agent string names the host's kernel and Node version; Slack needs neither.
      headers: { "User-Agent": "toolreg-tools-slack" },
      logger: callLogger(context),
    });
    const guard = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        throw slackFailure(error, what);
      }
    };
    return {
      call: (what, send) => guard(what, () => send(client)),
      list: (what, method, args, itemsOf, bound) =>
        guard(what, () =>
          collectPages(
            (async function* () {
              for await (const page of client.paginate(method, { ...args })) {
                // An empty, null or absent next_cursor ends the list (docs.slack.dev/apis/web-api/pagination).
                yield { items: itemsOf(page) ?? [], hasMore: Boolean(page.response_metadata?.next_cursor) };
              }
            })(),
            bound,
          ),
        ),
    };
  };
}

/** The SDK's logger, speaking through the call's: warnings (Slack's `warning`s among them) and errors only. */
function callLogger(context: ToolContext): SlackLogger {
  const quiet = () => {};
  const say =
    (level: "warn" | "error") =>
    (...parts: unknown[]) =>
      context.logger[level]({ toolkit: "slack" }, parts.map(String).join(" "));
  return {
    debug: quiet,
    info: quiet,
    warn: say("warn"),
    error: say("error"),
    setLevel: quiet,
    getLevel: () => LogLevel.WARN,
    setName: quiet,
  };
}
