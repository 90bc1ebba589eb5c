/** @module Maps an upstream HTTP error status to the envelope code a model can act on. */
import { STATUS_CODES } from "node:http";
import type { EgressResponse } from "../../egress/egress-client.js";
import { ToolFailure } from "../../errors/tool-failure.js";

/** Throws for 4xx and 5xx: 429 is `upstream_rate_limited`, 5xx a retryable and 4xx a final `upstream_error`. */
export function throwIfHttpError(response: EgressResponse): void {
  const { status, url } = response;
  if (status < 400) return;
  const label = `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;
  const wait = retryAfterMs(response.headers["retry-after"]);
  const extra = wait === undefined ? {} : { retryAfterMs: wait };
  if (status === 429) {
    throw upstreamRateLimited(`${url} answered ${label}`, { retryAfterMs: wait, details: { status, url } });
  }
  if (status >= 500) {
    throw new ToolFailure("upstream_error", `${url} answered ${label}; the server failed, a retry may work`, {
      retryable: true,
      ...extra,
      details: { status, url },
    });
  }
  throw new ToolFailure("upstream_error", `${url} answered ${label}; change the request before retrying`, {
    retryable: false,
    details: { status, url },
  });
}

/** Retry-After as milliseconds from now: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A vendor's rate limit, told as which one and when it lifts, so a model waits instead of retrying at once. */
export function upstreamRateLimited(
  message: string,
  options: { retryAfterMs?: number | undefined; details?: Record<string, unknown> },
): ToolFailure {
  const wait = options.retryAfterMs;
  const when = wait === undefined ? "later" : `in ${Math.max(1, Math.ceil(wait / 1000))} s`;
  return new ToolFailure("upstream_rate_limited", `${message}; try again ${when}`, {
    retryable: true,
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
    ...(options.details ? { details: options.details } : {}),
  });
}
