/**
 * @module Keeps the claims of running calls alive. A claim's lease covers one beat plus a grace, and one
 * timer renews every running claim each beat: a claim whose process died is presumed lost within a beat
 * and the grace, however long its tool may run. A live holder whose beats do not reach the store for
 * longer than the grace (a stalled event loop, a store that refuses writes) is taken for lost too; its
 * result, when it comes, still replaces the unknown outcome.
 */
import type { RunningCalls } from "./running-calls.js";
import type { SeamSettings } from "./seam-settings.js";

/** Where a claim's lease ends when renewed at `now`: a beat ahead (never past the call's deadline), plus the grace. */
export function leaseEnd(settings: SeamSettings, now: number, deadline: number): number {
  return now + Math.max(0, Math.min(deadline - now, settings.heartbeatMs)) + settings.leaseGraceMs;
}

export class ClaimHeartbeat {
  readonly #settings: SeamSettings;
  readonly #running: RunningCalls;
  #timer: NodeJS.Timeout | undefined;

  constructor(settings: SeamSettings, running: RunningCalls) {
    this.#settings = settings;
    this.#running = running;
  }

  /** Beats while any claimed call runs; the timer never keeps the process alive on its own. */
  ensureBeating(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.#beat(), this.#settings.heartbeatMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #beat(): void {
    const { stores, now } = this.#settings;
    let claims = 0;
    for (const call of this.#running) {
      if (!call.claim) continue;
      claims++;
      const at = now();
      stores.idempotency
        .heartbeat({
          tenantId: call.context.tenantId,
          key: call.claim.key,
          claimId: call.claim.claimId,
          now: at,
          leaseUntil: leaseEnd(this.#settings, at, call.deadline),
        })
        .then(
          (held) => {
            if (held) call.heartbeatAt = at;
            else call.context.logger.warn({ tool: call.tool.name }, "claim lost while the call ran");
          },
          // A store that fails now may answer at the next beat; the lease's grace covers a few misses.
          (error: unknown) =>
            call.context.logger.warn({ err: error, tool: call.tool.name }, "heartbeat failed"),
        );
    }
    if (claims === 0) this.stop();
  }
}
