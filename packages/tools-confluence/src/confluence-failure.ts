/**
 * @module Confluence's failures as envelope codes. Confluence answers errors in two shapes: the v2 API's
 * `{"errors":[{"status","code","title","detail"}]}` (community.developer.atlassian.com/t/98344, where v2's
 * error body is shown; Atlassian documents no schema for it) and the v1 API's `{"statusCode","message"}`
 * (developer.atlassian.com/cloud/confluence/rest/v1/intro/#status-codes). A 429 carries Retry-After, and
 * may carry Beta-Retry-After or only X-RateLimit-Reset, an ISO 8601 time (developer.atlassian.com/cloud/
 * confluence/rate-limiting/).
 */
import {
  type EgressResponse,
  rateLimitFailure,
  retryAfterMs,
  shortDetail,
  statusFailure,
  ToolFailure,
  type VendorIdentity,
} from "toolreg/toolkit";

export const CONFLUENCE: VendorIdentity = {
  label: "Confluence",
  whenRefused:
    "the stored credential was refused or lacks permission here: an operator must store a valid Atlassian e-mail and API token as email:token (or the user must reconnect), and the account must be allowed into this space",
};

/** What Confluence said about a failure, in either of its shapes. */
export interface ConfluenceError {
  /** One line, bounded: v2's title (with its detail), or v1's message. */
  text?: string;
}

export function readConfluenceError(body: unknown): ConfluenceError {
  if (typeof body !== "object" || body === null) return {};
  const record = body as Record<string, unknown>;
  const first = Array.isArray(record.errors)
    ? (record.errors[0] as Record<string, unknown> | undefined)
    : undefined;
  if (first && typeof first === "object") {
    const title = typeof first.title === "string" ? first.title : undefined;
    const detail = typeof first.detail === "string" ? first.detail : undefined;
    const text = shortDetail([title, detail].filter(Boolean).join(": "));
    return text ? { text } : {};
  }
  const text = shortDetail(record.message);
  return text ? { text } : {};
}

/** When a 429 lifts: Retry-After, else Atlassian's Beta-Retry-After, else the X-RateLimit-Reset time. */
export function rateLimitWaitMs(headers: Record<string, string>, now = Date.now()): number | undefined {
  const wait = retryAfterMs(headers["retry-after"], now) ?? retryAfterMs(headers["beta-retry-after"], now);
  if (wait !== undefined) return wait;
  const reset = headers["x-ratelimit-reset"];
  const at = reset === undefined ? Number.NaN : Date.parse(reset);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Turns a 409 into the failure the operation means by it (an update's stale version). */
export type ConflictReader = (error: ConfluenceError) => ToolFailure;

/** A failed answer as the envelope a model can act on; `what` names the thing asked for. */
export function confluenceFailure(
  response: EgressResponse,
  body: unknown,
  what: string,
  onConflict?: ConflictReader,
): ToolFailure {
  const error = readConfluenceError(body);
  const { status } = response;
  if (status === 409 && onConflict) return onConflict(error);
  if (status === 429)
    return rateLimitFailure(CONFLUENCE, response, error.text, rateLimitWaitMs(response.headers));
  if (status === 404) {
    // Confluence answers 404 both for what does not exist and for what this account may not see.
    return new ToolFailure(
      "upstream_error",
      `Confluence found no ${what}${error.text ? ` (${error.text})` : ""}, or this account may not see it; check the id with confluence_search or confluence_list_spaces`,
      { retryable: false, details: { status } },
    );
  }
  return statusFailure(CONFLUENCE, response, error.text);
}
