/**
 * @module What every vendor adapter does over HTTP: send through egress with the call's deadline, read the
 * vendor's JSON or say plainly that it was not, check it against the vendor's documented shape, and turn
 * an HTTP failure into the envelope code a model can act on. Adapters give their request, their reader
 * of the vendor's error body (vendors signal a bad key or a spent quota in their own ways) and their
 * answer's schema; `statusFailure` covers what the body does not say.
 */
import { STATUS_CODES } from "node:http";
import type { z } from "zod";
import type { EgressClient, EgressResponse } from "../../egress/egress-client.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { ToolContext } from "../../seam/context.js";
import { callOptions } from "./egress-call.js";
import { retryAfterMs, upstreamRateLimited } from "./upstream-status.js";

/** A quote, a forecast or twenty places are a few KB; a megabyte is no answer of a JSON API. */
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Vendor error text shown to a model is short and on one line: it explains, it does not converse. */
const DETAIL_CHARS = 200;

/** Who answers, for messages: the vendor's name and what a deployment does about a refused key. */
export interface VendorIdentity {
  label: string;
  /** E.g. `the deployment must set the credential "brave" to a valid Brave Search API subscription token`. */
  whenRefused: string;
}

export interface VendorRequestInit {
  method?: "GET" | "POST";
  /** Sent as JSON. */
  json?: unknown;
  headers?: Record<string, string>;
  /** A cap on the body read (1 MB unless said). */
  maxResponseBytes?: number;
  /** At most this long, when less than the call has left (a status check must not hold the whole call). */
  timeoutMs?: number;
}

/** Sends a GET (or a JSON POST) and returns the response with its body read as JSON when it is JSON. */
export async function sendRequest(
  egress: EgressClient,
  context: ToolContext,
  url: string,
  init: VendorRequestInit = {},
): Promise<{ response: EgressResponse; body: unknown }> {
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  const response = await egress.request(url, {
    method: init.method ?? "GET",
    headers: {
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers,
    },
    ...(body === undefined ? {} : { body }),
    maxResponseBytes: init.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    ...withinCall(context, init.timeoutMs),
  });
  return { response, body: jsonBody(response) };
}

function withinCall(context: ToolContext, limitMs: number | undefined) {
  const options = callOptions(context);
  if (limitMs === undefined) return options;
  return { ...options, timeoutMs: Math.min(options.timeoutMs ?? limitMs, limitMs) };
}

/** The body as JSON, or undefined when it is cut or not JSON (an error page from a proxy, say). */
function jsonBody(response: EgressResponse): unknown {
  if (response.truncated) return undefined;
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** A successful answer checked against the vendor's documented shape; anything else is `upstream_error`. */
export function parseAnswer<T>(
  identity: VendorIdentity,
  response: EgressResponse,
  body: unknown,
  schema: z.ZodType<T>,
): T {
  const details = { status: response.status, contentType: response.headers["content-type"] ?? "" };
  if (response.truncated) {
    throw new ToolFailure(
      "upstream_error",
      `${identity.label} sent more than ${response.bytesRead} bytes, which is no answer of its API; ask for less before retrying`,
      { retryable: false, details },
    );
  }
  if (body === undefined) {
    throw new ToolFailure(
      "upstream_error",
      `${identity.label} answered ${response.status} with something other than its JSON (content type ${details.contentType || "none"}); the endpoint may be wrong or behind a proxy`,
      { retryable: false, details },
    );
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join(".") : "the answer";
  throw new ToolFailure(
    "upstream_error",
    `${identity.label} answered JSON that is not its documented response (${where}: ${issue?.message ?? "unexpected"}); the API may have changed`,
    { retryable: false, details },
  );
}

/** Vendor text for a message: one line, bounded, never a document; undefined when there is none. */
export function shortDetail(text: unknown, maxChars = DETAIL_CHARS): string | undefined {
  if (typeof text !== "string") return undefined;
  const line = text
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (line.length === 0) return undefined;
  return line.length > maxChars ? `${line.slice(0, maxChars)}…` : line;
}

function statusLabel(status: number): string {
  return `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;
}

function said(detail: string | undefined): string {
  return detail ? ` (${detail})` : "";
}

/** The key was refused: only the deployment can fix that, so the message says what it must do. */
export function credentialFailure(
  identity: VendorIdentity,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  return new ToolFailure(
    "upstream_error",
    `${identity.label} refused this deployment's access (${statusLabel(response.status)}${detail ? `: ${detail}` : ""}): ${identity.whenRefused}; retrying will not help`,
    { retryable: false, details: { status: response.status } },
  );
}

/**
 * A prepaid balance is spent (402 Payment Required, "Insufficient credits"): waiting never restores it,
 * only the deployment adding credits does, so this is final rather than a rate limit.
 */
export function creditsFailure(
  identity: VendorIdentity,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  return new ToolFailure(
    "upstream_error",
    `${identity.label} says this account has no credits left${said(detail)}: the deployment must add credits or raise its plan; retrying will not help`,
    { retryable: false, details: { status: response.status, limit: "credits" } },
  );
}

/** A plan's quota for a period is spent: it lifts when the period resets or the plan is raised. */
export function quotaFailure(
  identity: VendorIdentity,
  response: EgressResponse,
  detail: string | undefined,
  wait = retryAfterMs(response.headers["retry-after"]),
): ToolFailure {
  return upstreamRateLimited(
    `${identity.label} says this account's quota is spent${said(detail)}; the deployment can raise its plan`,
    { retryAfterMs: wait, details: { status: response.status, limit: "quota" } },
  );
}

/** Too many requests in a short window. */
export function rateLimitFailure(
  identity: VendorIdentity,
  response: EgressResponse,
  detail: string | undefined,
  wait = retryAfterMs(response.headers["retry-after"]),
): ToolFailure {
  return upstreamRateLimited(`${identity.label} is rate limiting these requests${said(detail)}`, {
    retryAfterMs: wait,
    details: { status: response.status, limit: "rate" },
  });
}

/** What a status means when the vendor's body said nothing more specific. */
export function statusFailure(
  identity: VendorIdentity,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  const { status } = response;
  if (status === 401 || status === 403) return credentialFailure(identity, response, detail);
  if (status === 402) return creditsFailure(identity, response, detail);
  if (status === 429) return rateLimitFailure(identity, response, detail);
  if (status >= 500) {
    const wait = retryAfterMs(response.headers["retry-after"]);
    return new ToolFailure(
      "upstream_error",
      `${identity.label} failed with ${statusLabel(status)}${said(detail)}; a retry may work`,
      { retryable: true, ...(wait === undefined ? {} : { retryAfterMs: wait }), details: { status } },
    );
  }
  return new ToolFailure(
    "upstream_error",
    `${identity.label} rejected the request with ${statusLabel(status)}${said(detail)}; change the input before retrying`,
    { retryable: false, details: { status } },
  );
}

/**
 * `${base}${path}`: a base URL may carry a path of its own (a proxy, a SearXNG instance under /searx). Each
 * `query` parameter with a value is added, encoded; one left undefined is left out.
 */
export function endpointUrl(
  baseUrl: string,
  path: string,
  query: Record<string, string | undefined> = {},
): string {
  const url = `${baseUrl.replace(/\/+$/, "")}${path}`;
  const parameters = Object.entries(query).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  if (parameters.length === 0) return url;
  const withQuery = new URL(url);
  for (const [name, value] of parameters) withQuery.searchParams.set(name, value);
  return withQuery.href;
}
