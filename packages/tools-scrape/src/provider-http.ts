/**
 * @module What the two vendor providers add to toolreg/toolkit's vendor HTTP helpers: a page URL checked
 * against the egress policy before a vendor fetches it, an answer bounded by the crawl's byte budget, a
 * spent balance told as a limit (`upstream_rate_limited`), and the links of a markdown page.
 */
import {
  type EgressClient,
  type EgressResponse,
  parseAnswer,
  sendRequest,
  statusFailure,
  type ToolContext,
  ToolFailure,
  type VendorIdentity,
} from "toolreg/toolkit";
import type { z } from "zod";

/** A vendor's answer for one page: the page's markdown and metadata; a few MiB at most. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

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

/**
 * `checkPageUrl` for a site's robots.txt: false when its address cannot be checked (the crawler then finds
 * the site unreachable); a site the egress policy refuses throws, as its pages would, for the crawler to report.
 */
export async function robotsUrlChecked(
  targets: EgressClient,
  identity: VendorIdentity,
  url: string,
  context: ToolContext,
): Promise<boolean> {
  try {
    await checkPageUrl(targets, identity, url, context);
    return true;
  } catch (error) {
    if (ToolFailure.isInstance(error) && error.envelopeCode !== "egress_refused") return false;
    throw error;
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
  const cap = Math.max(0, Math.min(request.maxBytes ?? MAX_ANSWER_BYTES, MAX_ANSWER_BYTES));
  const { response, body } = await sendRequest(egress, context, request.url, {
    method: request.method,
    ...(request.json === undefined ? {} : { json: request.json }),
    ...(request.headers ? { headers: request.headers } : {}),
    maxResponseBytes: cap,
  });
  if (request.meter) request.meter.bytes += response.bytesRead;
  if (response.status >= 400) throw readFailure(identity, response, errorDetail(body));
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
  return { answer: parseAnswer(identity, response, body, schema), bytes: response.bytesRead };
}

/**
 * A vendor's 4xx or 5xx as the envelope code a model can act on. What differs from toolreg/toolkit's
 * `statusFailure`: a 4xx other than the key, credits (402) and rate limit is about the page the vendor was
 * asked to read, not the request's shape.
 */
function readFailure(
  identity: VendorIdentity,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  const { status } = response;
  const said = detail ? ` (${detail})` : "";
  if (status >= 400 && status < 500 && ![401, 402, 403, 429].includes(status)) {
    return new ToolFailure(
      "upstream_error",
      `${identity.label} could not read the page (${status}${said}); check the URL before retrying`,
      { retryable: false, details: { status } },
    );
  }
  return statusFailure(identity, response, detail);
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
