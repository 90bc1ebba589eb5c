/**
 * @module In-process ceilings that hold exactly: "100 per minute" admits at most 100 calls in any minute,
 * and all of the first 100 of a burst (a token bucket admits its capacity plus what refilled meanwhile).
 * A rule may add a burst, a token bucket that spreads the window's calls out. Counters live in this
 * process: several instances each count their own calls.
 */
import { ceilingKey } from "./ceiling-key.js";
import type { CeilingDecision, CeilingRequest, Ceilings } from "./ports.js";
import { checkRule, describeRule, type RateLimitRule, ruleApplies } from "./rate-limit-rule.js";
import { SlidingCount, type WindowShape, windowShape } from "./sliding-count.js";
import { TokenBucket } from "./token-bucket.js";

export type { RateLimitRule } from "./rate-limit-rule.js";

interface Counter {
  readonly count: SlidingCount;
  readonly bucket: TokenBucket | undefined;
}

interface Compiled {
  readonly rule: RateLimitRule;
  readonly index: number;
  readonly shape: WindowShape;
  readonly description: string;
}

/** How often counters that hold nothing are dropped. */
const SWEEP_EVERY_MS = 60_000;

export class SlidingWindowCeilings implements Ceilings {
  readonly #rules: readonly Compiled[];
  readonly #counters = new Map<string, Counter>();
  #sweptAt = Number.NEGATIVE_INFINITY;

  constructor(rules: readonly RateLimitRule[]) {
    this.#rules = rules.map((rule, index) => {
      checkRule(rule);
      return { rule, index, shape: windowShape(rule.windowMs), description: describeRule(rule) };
    });
  }

  async take(request: CeilingRequest): Promise<CeilingDecision> {
    return this.#take(request);
  }

  #take(request: CeilingRequest): CeilingDecision {
    const { now } = request;
    if (now - this.#sweptAt >= SWEEP_EVERY_MS) this.#sweep(now);
    const admitting: Counter[] = [];
    let refusal: { retryAfterMs: number; limit: string } | undefined;
    for (const compiled of this.#rules) {
      const { rule } = compiled;
      if (!ruleApplies(rule, request)) continue;
      const counter = this.#counter(compiled, request);
      const waitMs = Math.max(
        counter.count.msUntilBelow(rule.limit, now),
        counter.bucket?.msUntilToken(now) ?? 0,
      );
      // The call must wait for every rule that refuses it: the longest wait is the one worth telling.
      if (waitMs > 0 && waitMs > (refusal?.retryAfterMs ?? 0)) {
        refusal = { retryAfterMs: waitMs, limit: compiled.description };
      }
      if (waitMs === 0) admitting.push(counter);
    }
    if (refusal) return { allowed: false, ...refusal };
    // Counted only once every rule had room, so a refused call costs nothing anywhere.
    for (const counter of admitting) {
      counter.count.add(now);
      counter.bucket?.take(now);
    }
    return { allowed: true };
  }

  #counter(compiled: Compiled, request: CeilingRequest): Counter {
    const key = `${compiled.index}\u0000${ceilingKey(compiled.rule.per, request)}`;
    let counter = this.#counters.get(key);
    if (!counter) {
      const { rule } = compiled;
      counter = {
        count: new SlidingCount(compiled.shape, request.now),
        bucket:
          rule.burst === undefined
            ? undefined
            : new TokenBucket(rule.burst, (rule.limit * 1000) / rule.windowMs, request.now),
      };
      this.#counters.set(key, counter);
    }
    return counter;
  }

  /** Drops the counters of callers who have not called for a window: they would admit anything anyway. */
  #sweep(now: number): void {
    this.#sweptAt = now;
    for (const [key, counter] of this.#counters) {
      if (counter.count.count(now) === 0 && (counter.bucket?.full(now) ?? true)) this.#counters.delete(key);
    }
  }
}
