/**
 * @module Notion's failures as envelopes a model can act on. Notion answers an error with its HTTP status
 * and `{"object":"error","status":…,"code":…,"message":…}` (developers.notion.com/reference/status-codes);
 * the SDK throws that as APIResponseError when it knows the code, and as UnknownHTTPResponseError otherwise
 * (database_connection_unavailable, missing_version, a proxy's error page). Each is told here once for every
 * tool, with what to do about it. No SDK error leaves this module.
 */
import {
  APIErrorCode,
  APIResponseError,
  InvalidPathParameterError,
  RequestTimeoutError,
  UnknownHTTPResponseError,
} from "@notionhq/client";
import { retryAfterMs, shortDetail, ToolFailure, upstreamRateLimited } from "toolreg/toolkit";

/** Notion's side failed or is busy (500, 503, 504, and 529 "service_overload"): the same call may work later. */
const NOTION_FAILED = new Set<string>([
  APIErrorCode.InternalServerError,
  APIErrorCode.ServiceUnavailable,
  APIErrorCode.ServiceOverload,
  APIErrorCode.GatewayTimeout,
]);

/** The request itself is wrong (400): the model changes it. */
const BAD_REQUEST = new Set<string>([
  APIErrorCode.ValidationError,
  APIErrorCode.InvalidJSON,
  APIErrorCode.InvalidRequest,
  APIErrorCode.InvalidRequestURL,
]);

/** Turns whatever a Notion call threw into a ToolFailure about `what` (a ToolFailure from egress passes through). */
export function notionFailure(error: unknown, what: string): ToolFailure {
  if (ToolFailure.isInstance(error)) return error;
  // The SDK's fetch is egressFetch: what egress refused or timed out arrives here as its ToolFailure, or
  // wrapped once by a TypeError from the WHATWG layer.
  if (error instanceof Error && ToolFailure.isInstance(error.cause)) return error.cause;
  if (APIResponseError.isAPIResponseError(error)) return apiFailure(error, what);
  if (UnknownHTTPResponseError.isUnknownHTTPResponseError(error)) {
    const retryable = error.status >= 500;
    const wait = retryable ? retryAfterMs(headerOf(error.headers, "retry-after")) : undefined;
    return new ToolFailure(
      "upstream_error",
      `Notion answered HTTP ${error.status} to ${what} with an error the SDK does not know${retryable ? "; a retry may work" : ""}`,
      { retryable, ...(wait === undefined ? {} : { retryAfterMs: wait }), details: { status: error.status } },
    );
  }
  if (RequestTimeoutError.isRequestTimeoutError(error)) {
    return new ToolFailure("timeout", `Notion did not answer ${what} in time; a retry may work`, {
      retryable: true,
    });
  }
  if (InvalidPathParameterError.isInvalidPathParameterError(error)) {
    return new ToolFailure("invalid_input", `an id for ${what} is not a Notion id`, { retryable: false });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ToolFailure("upstream_error", `Notion failed on ${what}: ${shortDetail(message) ?? "unknown"}`, {
    retryable: false,
  });
}

function apiFailure(error: APIResponseError, what: string): ToolFailure {
  const code = String(error.code);
  const said = shortDetail(error.message);
  const details = { status: error.status, notionCode: code };
  const final = (message: string) =>
    new ToolFailure("upstream_error", message, { retryable: false, details });
  switch (code) {
    case APIErrorCode.Unauthorized:
      // Status 401 in details: the toolkit host turns it into auth_required naming the credentialRef.
      return final(
        `Notion refused the integration token for ${what} (unauthorized): ${said ?? "it is not valid"}`,
      );
    case APIErrorCode.RestrictedResource:
      return final(
        `Notion refused ${what}: the integration lacks the capability it needs (read content, insert content, update content, or read/insert comments); an owner enables it in the integration's settings${said ? ` (Notion said: ${said})` : ""}`,
      );
    case APIErrorCode.ObjectNotFound:
      return final(
        `Notion found nothing for ${what}: the id is wrong, or the page was never connected to this integration (Notion answers the same for both); find it with notion_search, or ask someone to add the integration under the page's ••• → Connections`,
      );
    case APIErrorCode.ConflictError:
      return new ToolFailure(
        "upstream_error",
        `Notion could not complete ${what} because of a conflicting change (conflict_error); read it again and retry`,
        { retryable: true, details },
      );
    case APIErrorCode.RateLimited:
      // About three requests a second per integration; Retry-After in seconds when Notion sends it
      // (developers.notion.com/reference/request-limits).
      return upstreamRateLimited(`Notion rate-limited ${what} (about three requests a second are allowed)`, {
        retryAfterMs: retryAfterMs(headerOf(error.headers, "retry-after")),
        details,
      });
  }
  if (BAD_REQUEST.has(code)) {
    return new ToolFailure("invalid_input", `Notion rejected ${what}: ${said ?? code}; change the request`, {
      retryable: false,
      details,
    });
  }
  if (NOTION_FAILED.has(code)) {
    const wait = retryAfterMs(headerOf(error.headers, "retry-after"));
    return new ToolFailure("upstream_error", `Notion failed on ${what} (${code}); a retry may work`, {
      retryable: true,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
      details,
    });
  }
  return final(`Notion refused ${what}: ${code}${said ? ` (${said})` : ""}`);
}

/** The SDK keeps the response's headers as the fetch gave them: a Headers object here. */
function headerOf(headers: unknown, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  if (headers && typeof headers === "object") {
    const value = (headers as Record<string, unknown>)[name];
    return typeof value === "string" ? value : undefined;
  }
  return undefined;
}

/**
 * A write's failure as the model must take it. Notion takes no idempotency key, so a write that timed out or
 * met a 5xx may have been made before the failure: retrying it could make it twice. Such a failure is told
 * as an unknown outcome, not retryable, with what to check first. A 429 (refused before anything was done)
 * and a conflict_error (the save did not happen) stay retryable.
 */
export function writeFailure(failure: ToolFailure, what: string, check: string): ToolFailure {
  const refusedFirst =
    failure.envelopeCode === "upstream_rate_limited" ||
    failure.details?.notionCode === APIErrorCode.ConflictError;
  if (!failure.retryable || refusedFirst) return failure;
  return new ToolFailure(
    failure.envelopeCode,
    `${failure.message.replace(/; a retry may work$/, "")}. The outcome of ${what} is unknown: Notion may have made the change before failing, and takes no idempotency key. ${check} before trying again`,
    { retryable: false, details: { ...failure.details, outcomeUnknown: true } },
  );
}
