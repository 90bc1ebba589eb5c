/**
 * @module What every search adapter does over HTTP, said once in `searchOverHttp`: send through egress
 * with the call's deadline, read the vendor's JSON or say plainly that it was not, map its results, and
 * turn an HTTP failure into the envelope code a model can act on. Each adapter gives its request, its
 * reader of the vendor's error body (vendors signal a bad key or a spent quota in their own ways, and
 * `statusFailure` covers the rest) and its field mapping.
 */
import { STATUS_CODES } from "node:http";
import type { z } from "zod";
import type { EgressClient, EgressResponse } from "../../egress/egress-client.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { ToolContext } from "../../seam/context.js";
import { callOptions } from "../toolkit/egress-call.js";
import { retryAfterMs, upstreamRateLimited } from "../toolkit/upstream-status.js";
import type { SearchHit } from "./search-provider.js";

/** A search answer is a page of snippets: a few hundred KB at most. More is not a search answer. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Vendor error text shown to a model is short and on one line: it explains, it does not converse. */
const DETAIL_CHARS = 200;

/** Who is answering, for messages: the vendor's name and what a deployment does about a refused key. */
export interface ProviderIdentity {
  label: string;
  /** E.g. `the deployment must set the credential "brave" to a valid Brave Search API subscription token`. */
  whenRefused: string;
}

export interface ProviderRequest {
  url: string;
  method: "GET" | "POST";
  /** Sent as JSON. */
  json?: unknown;
}

/** One search as an adapter describes it: what to send, how its vendor fails, and where its results are. */
export interface ProviderSearch<Answer> {
  identity: ProviderIdentity;
  request: ProviderRequest;
  /** The failure a 4xx or 5xx answer means; `body` is the vendor's JSON error, when it sent one. */
  failure(identity: ProviderIdentity, response: EgressResponse, body: unknown): ToolFailure;
  /** The vendor's documented answer. */
  answer: z.ZodType<Answer>;
  /** The answer's result items; throws when the answer itself says the search failed. */
  results(answer: Answer): readonly unknown[];
  /** One result as the vendor documents it, read into our hit. */
  result: z.ZodType<SearchHit>;
}

/** Sends the search, and returns its hits or throws the ToolFailure its answer means. */
export async function searchOverHttp<Answer>(
  egress: EgressClient,
  context: ToolContext,
  search: ProviderSearch<Answer>,
): Promise<SearchHit[]> {
  const response = await sendRequest(egress, search.request, context);
  if (response.status >= 400) throw search.failure(search.identity, response, jsonBody(response));
  const answer = parseAnswer(response, search.answer, search.identity);
  return collectHits(search.results(answer), search.result);
}

function sendRequest(
  egress: EgressClient,
  request: ProviderRequest,
  context: ToolContext,
): Promise<EgressResponse> {
  const body = request.json === undefined ? undefined : JSON.stringify(request.json);
  return egress.request(request.url, {
    method: request.method,
    headers: {
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body }),
    maxResponseBytes: MAX_RESPONSE_BYTES,
    ...callOptions(context),
  });
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
function parseAnswer<T>(response: EgressResponse, schema: z.ZodType<T>, identity: ProviderIdentity): T {
  const details = { status: response.status, contentType: response.headers["content-type"] ?? "" };
  if (response.truncated) {
    throw new ToolFailure(
      "upstream_error",
      `${identity.label} sent more than ${response.bytesRead} bytes, which is no search answer; try again with a narrower query`,
      { retryable: false, details },
    );
  }
  const json = jsonBody(response);
  if (json === undefined) {
    throw new ToolFailure(
      "upstream_error",
      `${identity.label} answered ${response.status} with something other than its JSON (content type ${details.contentType || "none"}); the endpoint may be wrong or behind a proxy`,
      { retryable: false, details },
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join(".") : "the answer";
    throw new ToolFailure(
      "upstream_error",
      `${identity.label} answered JSON that is not its documented search response (${where}: ${issue?.message ?? "unexpected"}); the API may have changed`,
      { retryable: false, details },
    );
  }
  return parsed.data;
}

/**
 * The vendor's result items in our shape. An item that is not what the vendor documents (no URL, say) is
 * skipped rather than failing the whole search: one odd result should not cost the others.
 */
function collectHits(items: readonly unknown[], schema: z.ZodType<SearchHit>): SearchHit[] {
  return items.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Vendor text for a message: one line, bounded, never a document. */
export function shortDetail(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  const line = text
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (line.length === 0) return undefined;
  return line.length > DETAIL_CHARS ? `${line.slice(0, DETAIL_CHARS)}…` : line;
}

function statusLabel(status: number): string {
  return `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;
}

function said(detail: string | undefined): string {
  return detail ? ` (${detail})` : "";
}

/** The key was refused: only the deployment can fix that, so the message says what it must do. */
export function credentialFailure(
  identity: ProviderIdentity,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  return new ToolFailure(
    "upstream_error",
    `${identity.label} refused this deployment's access (${statusLabel(response.status)}${detail ? `: ${detail}` : ""}): ${identity.whenRefused}; retrying will not help`,
    { retryable: false, details: { status: response.status } },
  );
}

/** A plan's quota is spent: it lifts when the period resets or the plan is raised. */
export function quotaFailure(
  identity: ProviderIdentity,
  response: EgressResponse,
  detail: string | undefined,
  wait?: number,
): ToolFailure {
  return upstreamRateLimited(
    `${identity.label} says this account's quota is spent${said(detail)}; the deployment can raise its plan`,
    { retryAfterMs: wait, details: { status: response.status, limit: "quota" } },
  );
}

/** Too many requests in a short window. */
export function rateLimitFailure(
  identity: ProviderIdentity,
  response: EgressResponse,
  detail: string | undefined,
  wait = retryAfterMs(response.headers["retry-after"]),
): ToolFailure {
  return upstreamRateLimited(`${identity.label} is rate limiting these searches${said(detail)}`, {
    retryAfterMs: wait,
    details: { status: response.status, limit: "rate" },
  });
}

/** What a status means when the vendor's body said nothing more specific. */
export function statusFailure(
  identity: ProviderIdentity,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  const { status } = response;
  if (status === 401 || status === 403) return credentialFailure(identity, response, detail);
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
    `${identity.label} rejected the search with ${statusLabel(status)}${said(detail)}; change the query or options before retrying`,
    { retryable: false, details: { status } },
  );
}

/** `${base}${path}`: a base URL may carry a path of its own (a SearXNG instance under /searx). */
export function endpointUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}
