/**
 * @module What every media provider does over HTTP, said once: send JSON through egress with the call's
 * deadline, read the vendor's JSON answer against its documented shape or say plainly that it was not, and
 * turn a refusal into the envelope code a model can act on. Each provider reads its own error body first
 * (a spent quota and a content-policy refusal look different at each vendor); `statusFailure` covers the rest.
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

/** An API answer is a small JSON document, a base64 image at most (gpt-image-1's is a few MB). */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** Vendor text shown to a model: one line, short. */
const DETAIL_CHARS = 300;

/** Who answers, for messages: the vendor's name and what the deployment does about a refused key. */
export interface Vendor {
  label: string;
  credentialRef: string;
}

export interface JsonRequest {
  url: string;
  method: "GET" | "POST";
  json?: unknown;
  headers?: Readonly<Record<string, string>>;
  /** At most this long, when less than the call has left (a status check must not hold the whole call). */
  timeoutMs?: number;
}

/** Reads a vendor's error body into a failure, or undefined to leave it to `statusFailure`. */
export type ErrorReader = (response: EgressResponse, body: unknown) => ToolFailure | undefined;

/** Sends `request` and returns its JSON answer checked against `schema`, or throws the failure it means. */
export async function requestJson<T>(
  egress: EgressClient,
  context: ToolContext,
  vendor: Vendor,
  request: JsonRequest,
  schema: z.ZodType<T>,
  readError: ErrorReader,
): Promise<T> {
  const body = request.json === undefined ? undefined : JSON.stringify(request.json);
  const response = await egress.request(request.url, {
    method: request.method,
    headers: {
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...request.headers,
    },
    ...(body === undefined ? {} : { body }),
    maxResponseBytes: MAX_ANSWER_BYTES,
    ...bounded(callOptions(context), request.timeoutMs),
  });
  if (response.status >= 400) {
    const json = jsonBody(response);
    throw readError(response, json) ?? statusFailure(vendor, response, errorText(json));
  }
  return parseAnswer(vendor, response, schema);
}

function bounded<T extends { timeoutMs?: number | undefined }>(options: T, limitMs: number | undefined): T {
  if (limitMs === undefined) return options;
  return { ...options, timeoutMs: Math.min(options.timeoutMs ?? limitMs, limitMs) };
}

/** The body as JSON, or undefined when it is cut or not JSON (an error page from a proxy, say). */
export function jsonBody(response: EgressResponse): unknown {
  if (response.truncated) return undefined;
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

function parseAnswer<T>(vendor: Vendor, response: EgressResponse, schema: z.ZodType<T>): T {
  const details = { status: response.status, contentType: response.headers["content-type"] ?? "" };
  if (response.truncated) {
    throw new ToolFailure(
      "upstream_error",
      `${vendor.label} sent an answer larger than ${response.bytesRead} bytes, which this deployment does not read (the egress policy's maxResponseBytes; an inline image needs several MB)`,
      { retryable: false, details },
    );
  }
  const json = jsonBody(response);
  if (json === undefined) {
    throw new ToolFailure(
      "upstream_error",
      `${vendor.label} answered ${response.status} with something other than its JSON (content type ${details.contentType || "none"}); the endpoint may be wrong or behind a proxy`,
      { retryable: false, details },
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join(".") : "the answer";
    throw new ToolFailure(
      "upstream_error",
      `${vendor.label} answered JSON that is not its documented response (${where}: ${issue?.message ?? "unexpected"}); the API may have changed`,
      { retryable: false, details },
    );
  }
  return parsed.data;
}

/** The human text of the error bodies these vendors send: `{error: {message}}`, `{detail}`, `{message}`. */
export function errorText(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (typeof error === "object" && error !== null)
    return shortDetail((error as Record<string, unknown>).message);
  if (typeof error === "string") return shortDetail(error);
  if (typeof record.detail === "string") return shortDetail(record.detail);
  if (Array.isArray(record.detail)) {
    const first = record.detail[0] as { msg?: unknown } | undefined;
    return shortDetail(first?.msg);
  }
  return shortDetail(record.message ?? record.title);
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

const said = (detail: string | undefined) => (detail ? ` (${detail})` : "");
const statusLabel = (status: number) => `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;

/** The account cannot pay for more: no wait helps, a person must add credit or raise a limit. */
export function billingFailure(
  vendor: Vendor,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  // The meaning the audio tools give OpenAI's insufficient_quota: a limit (upstream_rate_limited) that no
  // wait lifts (not retryable), one for the same condition at every vendor.
  return new ToolFailure(
    "upstream_rate_limited",
    `${vendor.label} refused for billing: this account's quota or credit is spent${said(detail)}; retrying will not help until the deployment adds credit or raises its limit`,
    { retryable: false, details: { status: response.status, limit: "quota" } },
  );
}

/** The provider's safety system refused the prompt: the same prompt will be refused again. */
export function contentPolicyFailure(
  vendor: Vendor,
  status: number,
  detail: string | undefined,
): ToolFailure {
  return new ToolFailure(
    "invalid_input",
    `${vendor.label}'s safety system refused this prompt${said(detail)}; retrying the same prompt will not help, change what it asks for`,
    { retryable: false, details: { status, refusal: "content_policy" } },
  );
}

/** Too many requests in a short window: it lifts, so the model is told when. */
export function rateLimitFailure(
  vendor: Vendor,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  return upstreamRateLimited(`${vendor.label} is rate limiting this account${said(detail)}`, {
    retryAfterMs: retryAfterMs(response.headers["retry-after"]),
    details: { status: response.status, limit: "rate" },
  });
}

/** What a status means when the vendor's body said nothing more specific. */
export function statusFailure(
  vendor: Vendor,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  const { status } = response;
  const details = { status };
  if (status === 401 || status === 403) {
    return new ToolFailure(
      "upstream_error",
      `${vendor.label} refused this deployment's key (${statusLabel(status)}${detail ? `: ${detail}` : ""}): the deployment must set the credential "${vendor.credentialRef}" to a valid ${vendor.label} API key; retrying will not help`,
      { retryable: false, details },
    );
  }
  if (status === 402) return billingFailure(vendor, response, detail);
  if (status === 429) return rateLimitFailure(vendor, response, detail);
  if (status >= 500) {
    const wait = retryAfterMs(response.headers["retry-after"]);
    return new ToolFailure(
      "upstream_error",
      `${vendor.label} failed (${statusLabel(status)})${said(detail)}; a retry may work`,
      { retryable: true, ...(wait === undefined ? {} : { retryAfterMs: wait }), details },
    );
  }
  return new ToolFailure(
    "upstream_error",
    `${vendor.label} refused the request (${statusLabel(status)})${said(detail)}; change the request before retrying`,
    { retryable: false, details },
  );
}
