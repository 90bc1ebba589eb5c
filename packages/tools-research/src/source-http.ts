/**
 * @module What every research source does over HTTP, said once: a GET through egress with the call's
 * deadline and a User-Agent naming the deployment (Wikimedia and NCBI both ask for one), a bounded body,
 * an HTTP failure told as the envelope code a model can act on, and a JSON answer checked against the
 * vendor's documented shape. Each source adds what its API says in its own body.
 */
import { STATUS_CODES } from "node:http";
import {
  callOptions,
  type EgressClient,
  type EgressResponse,
  retryAfterMs,
  type ToolContext,
  ToolFailure,
  upstreamRateLimited,
} from "toolreg/toolkit";
import type { z } from "zod";

/** A page of search results is tens of KB; an arXiv feed of 20 abstracts about 100 KB. More is no answer. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Vendor text quoted in a message: one line, short. */
const DETAIL_CHARS = 200;

/** Who answered, for messages, and how each request names the deployment. */
export interface SourceClient {
  label: string;
  egress: EgressClient;
  userAgent: string;
}

/** Sends a GET and returns the response whatever its status; egress failures pass through as they are. */
export function getFrom(
  client: SourceClient,
  url: string,
  accept: string,
  context: ToolContext,
): Promise<EgressResponse> {
  return client.egress.request(url, {
    method: "GET",
    headers: { accept, "user-agent": client.userAgent },
    maxResponseBytes: MAX_RESPONSE_BYTES,
    ...callOptions(context),
  });
}

/** The body as text, or a failure when egress cut it at the bound. */
export function bodyText(client: SourceClient, response: EgressResponse): string {
  if (response.truncated) {
    throw new ToolFailure(
      "upstream_error",
      `${client.label} sent more than ${response.bytesRead} bytes, which is no search answer`,
      { retryable: false, details: { status: response.status } },
    );
  }
  return response.body.toString("utf8");
}

/** The body as JSON, or undefined when it is not JSON (an error page from a proxy, say). */
export function jsonOf(response: EgressResponse): unknown {
  if (response.truncated) return undefined;
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** A 2xx answer read as the vendor's documented JSON; anything else is a final `upstream_error`. */
export function parseJson<T>(client: SourceClient, response: EgressResponse, schema: z.ZodType<T>): T {
  const text = bodyText(client, response);
  const contentType = response.headers["content-type"] ?? "";
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ToolFailure(
      "upstream_error",
      `${client.label} answered ${response.status} with something other than JSON (content type ${contentType || "none"}); the endpoint may be wrong or failing`,
      { retryable: false, details: { status: response.status, contentType } },
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join(".") : "the answer";
    throw new ToolFailure(
      "upstream_error",
      `${client.label} answered JSON that is not its documented response (${where}: ${issue?.message ?? "unexpected"}); the API may have changed`,
      { retryable: false, details: { status: response.status } },
    );
  }
  return parsed.data;
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

/** What an HTTP error status means when the vendor's body said nothing more specific. */
export function statusFailure(client: SourceClient, response: EgressResponse, detail?: string): ToolFailure {
  const { status } = response;
  const said = detail ? ` (${detail})` : "";
  const wait = retryAfterMs(response.headers["retry-after"]);
  if (status === 429) {
    return upstreamRateLimited(`${client.label} is rate limiting these searches${said}`, {
      retryAfterMs: wait,
      details: { status },
    });
  }
  if (status >= 500) {
    return new ToolFailure(
      "upstream_error",
      `${client.label} failed with ${statusLabel(status)}${said}; a retry may work`,
      { retryable: true, ...(wait === undefined ? {} : { retryAfterMs: wait }), details: { status } },
    );
  }
  return new ToolFailure(
    "upstream_error",
    `${client.label} rejected the search with ${statusLabel(status)}${said}; change the query before retrying`,
    { retryable: false, details: { status } },
  );
}

/** `${base}${path}` for a base URL that may carry a path of its own. */
export function endpointUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}
