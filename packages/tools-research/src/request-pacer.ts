/**
 * @module Spacing a source's requests as its operator asks: arXiv one request every three seconds, NCBI
 * at most three a second without an API key. Every call of the bound toolkit shares one pacer per source,
 * so concurrent searches take turns instead of earning a block; a turn that would come after the call's
 * deadline is refused at once as a rate limit with the wait, rather than sleeping into a timeout.
 */
import { type ToolContext, ToolFailure, upstreamRateLimited } from "toolreg/toolkit";

export interface RequestPacer {
  /** Resolves when this request may go; throws when its turn is past the call's deadline or the call ends. */
  turn(context: ToolContext): Promise<void>;
}

export function createRequestPacer(label: string, intervalMs: number, reason: string): RequestPacer {
  let next = 0;
  return {
    async turn(context) {
      if (intervalMs <= 0) return;
      const now = Date.now();
      const slot = Math.max(now, next);
      const wait = slot - now;
      if (now + wait >= context.deadline) {
        throw upstreamRateLimited(
          `this deployment paces ${label} (${reason}) and its turn is past this call's deadline`,
          {
            retryAfterMs: wait,
            details: { limit: "local pacing" },
          },
        );
      }
      next = slot + intervalMs;
      if (wait > 0) await sleep(wait, context.signal);
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new ToolFailure("timeout", "the call ended while it waited for its turn", { retryable: true }));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new ToolFailure("timeout", "the call ended while it waited for its turn", { retryable: true }));
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}
