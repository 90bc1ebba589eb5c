/**
 * @module Jira's failures as envelopes a model can act on. Jira answers an error with its ErrorCollection,
 * `{"errorMessages": [...], "errors": {"field": "message"}}` (developer.atlassian.com/cloud/jira/platform/
 * rest/v3/intro/#status-codes), and a rate limit with 429 and `Retry-After` seconds, or the beta limits'
 * `Beta-Retry-After`, or only `X-RateLimit-Reset` or `X-Beta-RateLimit-Reset` (an ISO 8601 time), with
 * `RateLimit-Reason` (or `X-Beta-RateLimit-Reason`) saying which limit ran out: `jira-burst-based`,
 * `jira-per-issue-on-write`, `jira-quota-tenant-based`… (developer.atlassian.com/cloud/jira/platform/
 * rate-limiting and …/build-an-app-that-respects-rate-limits). Told apart here, once for every tool.
 */
import {
  credentialFailure,
  type EgressResponse,
  retryAfterMs,
  shortDetail,
  statusFailure,
  ToolFailure,
  upstreamRateLimited,
  type VendorIdentity,
} from "toolreg/toolkit";
import { z } from "zod";

const ErrorCollection = z.looseObject({
  errorMessages: z.array(z.string()).optional(),
  errors: z.record(z.string(), z.string()).optional(),
});

/** What Jira said was wrong, on one bounded line; undefined for a body that is no ErrorCollection. */
export function jiraErrorDetail(body: unknown): string | undefined {
  const parsed = ErrorCollection.safeParse(body);
  if (!parsed.success) return undefined;
  const fields = Object.entries(parsed.data.errors ?? {}).map(([field, message]) => `${field}: ${message}`);
  return shortDetail([...(parsed.data.errorMessages ?? []), ...fields].join("; "), 400);
}

/** A failed answer to `what` as the ToolFailure that says what to do about it. */
export function jiraFailure(
  identity: VendorIdentity,
  response: EgressResponse,
  body: unknown,
  what: string,
): ToolFailure {
  const detail = jiraErrorDetail(body);
  const status = response.status;
  const said = detail ? `: ${detail}` : "";
  switch (status) {
    case 400:
      return new ToolFailure(
        "invalid_input",
        `Jira rejected ${what}${said}; change the input before retrying`,
        { retryable: false, details: { status, ...(detail ? { jira: detail } : {}) } },
      );
    case 401:
      return credentialFailure(identity, response, detail);
    case 403:
      return new ToolFailure(
        "upstream_error",
        `the connected Jira account may not do ${what}${said}: a Jira admin must grant it the project permission, or another account must do it`,
        { retryable: false, details: { status } },
      );
    case 404:
      return new ToolFailure(
        "upstream_error",
        `Jira found no ${what}${detail ? ` (Jira said: ${detail.replace(/\.+$/, "")})` : ""}: it does not exist or the connected account cannot see it (Jira answers the same for both)`,
        { retryable: false, details: { status } },
      );
    case 429: {
      const reason = response.headers["ratelimit-reason"] ?? response.headers["x-beta-ratelimit-reason"];
      return upstreamRateLimited(
        `Jira is rate limiting these requests${reason ? ` (${shortDetail(reason, 60)})` : ""}`,
        {
          retryAfterMs: rateLimitWait(response.headers),
          details: { status, limit: "rate", ...(reason ? { reason: shortDetail(reason, 60) } : {}) },
        },
      );
    }
    default:
      return statusFailure(identity, response, detail);
  }
}

/** How long Jira asks to wait: Retry-After, else Beta-Retry-After, else until X-RateLimit-Reset or its beta twin. */
export function rateLimitWait(
  headers: Readonly<Record<string, string>>,
  now = Date.now(),
): number | undefined {
  return (
    retryAfterMs(headers["retry-after"], now) ??
    retryAfterMs(headers["beta-retry-after"], now) ??
    resetWait(headers["x-ratelimit-reset"], now) ??
    resetWait(headers["x-beta-ratelimit-reset"], now)
  );
}

function resetWait(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value.trim());
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
