/**
 * @module What the media providers add to toolreg/toolkit's vendor HTTP helpers: answers large enough for an
 * inline image, a status check bounded below the call's time, the error bodies these vendors send, and the
 * refusals of a media API (billing, content policy). Each provider reads its own error body first (a spent
 * quota and a content-policy refusal look different at each vendor); `statusFailure` covers the rest.
 */
import { STATUS_CODES } from "node:http";
import {
  credentialFailure,
  type EgressClient,
  type EgressResponse,
  parseAnswer,
  rateLimitFailure,
  retryAfterMs,
  sendRequest,
  shortDetail as sharedShortDetail,
  type ToolContext,
  ToolFailure,
  type VendorIdentity,
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
  return (await requestAnswer(egress, context, vendor, request, schema, readError)).answer;
}

/** As `requestJson`, with the response beside the answer, for a vendor whose 200 may still be a failure. */
export async function requestAnswer<T>(
  egress: EgressClient,
  context: ToolContext,
  vendor: Vendor,
  request: JsonRequest,
  schema: z.ZodType<T>,
  readError: ErrorReader,
): Promise<{ response: EgressResponse; answer: T }> {
  const { response, body } = await sendRequest(egress, context, request.url, {
    method: request.method,
    ...(request.json === undefined ? {} : { json: request.json }),
    ...(request.headers ? { headers: { ...request.headers } } : {}),
    maxResponseBytes: MAX_ANSWER_BYTES,
    ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
  });
  if (response.status >= 400) {
    throw readError(response, body) ?? statusFailure(vendor, response, errorText(body));
  }
  if (response.truncated) {
    throw new ToolFailure(
      "upstream_error",
      `${vendor.label} sent an answer larger than ${response.bytesRead} bytes, which this deployment does not read (the egress policy's maxResponseBytes; an inline image needs several MB)`,
      {
        retryable: false,
        details: { status: response.status, contentType: response.headers["content-type"] ?? "" },
      },
    );
  }
  return { response, answer: parseAnswer(identityOf(vendor), response, body, schema) };
}

/** The vendor as toolreg/toolkit's shared failures name it. */
export function identityOf(vendor: Vendor): VendorIdentity {
  return {
    label: vendor.label,
    whenRefused: `the deployment must set the credential "${vendor.credentialRef}" to a valid ${vendor.label} API key`,
  };
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

/** Vendor text for a message: one line, bounded a little longer than toolreg/toolkit's (moderation reasons run long). */
export function shortDetail(text: unknown): string | undefined {
  return sharedShortDetail(text, DETAIL_CHARS);
}

const said = (detail: string | undefined) => (detail ? ` (${detail})` : "");
const statusLabel = (status: number) => `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;

/** The account cannot pay for more: no wait helps, a person must add credit or raise a limit. */
export function billingFailure(
  vendor: Vendor,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  // One meaning at every vendor, as the audio tools and toolreg/toolkit's creditsFailure give it: a spent balance
  // is final (upstream_error, not retryable) — upstream_rate_limited is for what a wait lifts.
  return new ToolFailure(
    "upstream_error",
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

/** What a status means when the vendor's body said nothing more specific. */
export function statusFailure(
  vendor: Vendor,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  const { status } = response;
  const details = { status };
  if (status === 401 || status === 403) return credentialFailure(identityOf(vendor), response, detail);
  if (status === 402) return billingFailure(vendor, response, detail);
  if (status === 429) return rateLimitFailure(identityOf(vendor), response, detail);
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
