/**
 * @module What the two vendor providers share over HTTP: send through egress with the call's deadline, read
 * the vendor's JSON or say plainly that it was not, and turn a vendor's status into the envelope code a
 * model can act on (a spent quota or a rate limit as `upstream_rate_limited` with when it lifts).
 */
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

/** A vendor's answer for one page: the page's markdown and metadata; a few MiB at most. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const DETAIL_CHARS = 200;

export interface VendorIdentity {
  label: string;
  /** What the deployment must do about a refused key. */
  whenRefused: string;
}

export interface VendorRequest {
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  json?: unknown;
  /** What the answer may hold: the crawl's remaining budget when below MAX_ANSWER_BYTES. */
  maxBytes?: number;
  /** The answer's bytes are added here, a failed one's too. */
  meter?: { bytes: number } | undefined;
}

/**
 * Refuses a page URL the operator's egress policy would refuse before it is handed to a vendor, which
 * fetches it from its own network: a self-hosted Firecrawl beside the deployment would otherwise read
 * `http://169.254.169.254/` for the model. `targets` is an egress client with no host restriction.
 */
export async function checkPageUrl(
  targets: EgressClient,
  identity: VendorIdentity,
  url: string,
  context: ToolContext,
): Promise<void> {
  try {
    await targets.checkTarget(url, context.signal);
  } catch (error) {
    if (!ToolFailure.isInstance(error) || context.signal.aborted) throw error;
    if (error.envelopeCode === "egress_refused") {
      throw new ToolFailure(
        "egress_refused",
        `${error.message}; the page was not handed to ${identity.label} either`,
        { retryable: false, ...(error.details ? { details: error.details } : {}) },
      );
    }
    // Not resolvable here (a name that does not exist, DNS down): whether it is private cannot be known,
    // so it is not sent on, and the failure says so as a direct read's would.
    throw new ToolFailure(
      error.envelopeCode,
      `${error.message}; a page whose address cannot be checked against the egress policy is not handed to ${identity.label}`,
      { retryable: error.retryable ?? false, details: { ...error.details, url } },
    );
  }
}

/** Sends the request and returns its JSON checked against `schema`, or throws the ToolFailure it means. */
export async function vendorJson<T>(
  egress: EgressClient,
  context: ToolContext,
  identity: VendorIdentity,
  request: VendorRequest,
  schema: z.ZodType<T>,
  errorDetail: (body: unknown) => string | undefined,
): Promise<{ answer: T; bytes: number }> {
  const body = request.json === undefined ? undefined : JSON.stringify(request.json);
  const cap = Math.max(0, Math.min(request.maxBytes ?? MAX_ANSWER_BYTES, MAX_ANSWER_BYTES));
  const response = await egress.request(request.url, {
    method: request.method,
    headers: {
      accept: "application/json",
      ...request.headers,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body }),
    maxResponseBytes: cap,
    ...callOptions(context),
  });
  if (request.meter) request.meter.bytes += response.bytesRead;
  const json = jsonBody(response);
  if (response.status >= 400) throw statusFailure(identity, response, errorDetail(json));
  const details = { status: response.status, contentType: response.headers["content-type"] ?? "" };
  if (response.truncated && cap < MAX_ANSWER_BYTES) {
    throw new ToolFailure(
      "upstream_error",
      `${identity.label}'s answer for this page was longer than the ${cap} bytes left of the crawl's byte budget; not read`,
      { retryable: false, details: { ...details, reason: "budget", maxBytes: cap } },
    );
  }
  if (response.truncated) {
    throw new ToolFailure(
      "upstream_error",
      `${identity.label} sent more than ${response.bytesRead} bytes for one page; the page is too large to read this way`,
      { retryable: false, details },
    );
  }
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
      `${identity.label} answered JSON that is not its documented response (${where}: ${issue?.message ?? "unexpected"}); the API may have changed`,
      { retryable: false, details },
    );
  }
  return { answer: parsed.data, bytes: response.bytesRead };
}

function jsonBody(response: EgressResponse): unknown {
  if (response.truncated) return undefined;
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Vendor text for a message: one line, bounded. */
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

/** A vendor's 4xx or 5xx as the envelope code a model can act on. */
export function statusFailure(
  identity: VendorIdentity,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  const { status } = response;
  const wait = retryAfterMs(response.headers["retry-after"]);
  if (status === 401 || status === 403) {
    return new ToolFailure(
      "upstream_error",
      `${identity.label} refused this deployment's access (${status}${said(detail)}): ${identity.whenRefused}; retrying will not help`,
      { retryable: false, details: { status } },
    );
  }
  if (status === 402) {
    return upstreamRateLimited(
      `${identity.label} says this account's credits are spent${said(detail)}; the deployment can top up or raise its plan`,
      { retryAfterMs: wait, details: { status, limit: "quota" } },
    );
  }
  if (status === 429) {
    return upstreamRateLimited(`${identity.label} is rate limiting these reads${said(detail)}`, {
      retryAfterMs: wait,
      details: { status, limit: "rate" },
    });
  }
  if (status >= 500) {
    return new ToolFailure(
      "upstream_error",
      `${identity.label} failed with ${status}${said(detail)}; a retry may work`,
      { retryable: true, ...(wait === undefined ? {} : { retryAfterMs: wait }), details: { status } },
    );
  }
  return new ToolFailure(
    "upstream_error",
    `${identity.label} could not read the page (${status}${said(detail)}); check the URL before retrying`,
    { retryable: false, details: { status } },
  );
}

/** `${base}${path}`: a base URL may carry a path of its own. */
export function endpointUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}

/** The absolute http(s) links of a markdown text, `[text](url)` and `<url>` forms, in order. */
export function markdownLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const match of markdown.matchAll(
    /\]\((https?:\/\/[^)\s]+)(?:\s+"[^"]*")?\)|<(https?:\/\/[^>\s]+)>/g,
  )) {
    const link = match[1] ?? match[2];
    if (link) links.push(link);
  }
  return links;
}
