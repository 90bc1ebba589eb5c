/** @module How Yahoo Finance's 429 reads: a wait when it says how long, an outright refusal when it does not. */
import { type EgressResponse, retryAfterMs, ToolFailure, upstreamRateLimited } from "toolreg/toolkit";

/**
 * Yahoo answers a plain "Too Many Requests" both to bursts and to clients it takes for automated ones
 * (tradingview/yahoo_datafeed#9, atreadw1492/yahoo_fin#130); since 2025 that includes any client without a
 * browser's TLS fingerprint (ranaroussi/yfinance#2422), which this one is. Only a Retry-After marks a burst
 * that waiting cures; without one, retrying is the loop to avoid.
 */
export function yahooRateLimited(response: EgressResponse): ToolFailure {
  const wait = retryAfterMs(response.headers["retry-after"]);
  if (wait !== undefined) {
    return upstreamRateLimited("Yahoo Finance is rate limiting these requests (429 Too Many Requests)", {
      retryAfterMs: wait,
      details: { status: 429, limit: "rate" },
    });
  }
  return new ToolFailure(
    "upstream_rate_limited",
    "Yahoo Finance answered 429 Too Many Requests with no time to wait, which is how it refuses automated clients outright; retrying will not help: the deployment should configure the financial-datasets or openbb provider",
    { retryable: false, details: { status: 429, limit: "refused" } },
  );
}
