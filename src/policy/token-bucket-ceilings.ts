/** @module In-process ceilings: token buckets per tenant, principal or tool key. */
import { type CeilingLevel, ceilingKey } from "./ceiling-key.js";
import type { CeilingDecision, CeilingRequest, Ceilings } from "./ports.js";
import { TokenBucket } from "./token-bucket.js";

export interface CeilingRule {
  /** What one bucket counts: all calls of a tenant, of a principal, or of a principal on one tool. */
  per: CeilingLevel;
  /** Burst size. */
  capacity: number;
  refillPerSecond: number;
  /** Restrict the rule to these tools; all tools when omitted. */
  tools?: readonly string[];
}

/**
 * A bucket of `capacity` refilled at `refillPerSecond`: smooth, but over a window it admits the capacity
 * plus what refilled meanwhile. `SlidingWindowCeilings` holds "N per window" exactly.
 */
export class TokenBucketCeilings implements Ceilings {
  readonly #rules: readonly CeilingRule[];
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(rules: readonly CeilingRule[]) {
    for (const rule of rules) {
      if (!(rule.capacity >= 1) || !(rule.refillPerSecond > 0)) {
        throw new RangeError("a ceiling needs capacity >= 1 and refillPerSecond > 0");
      }
    }
    this.#rules = rules;
  }

  async take(request: CeilingRequest): Promise<CeilingDecision> {
    const matched: TokenBucket[] = [];
    for (const [index, rule] of this.#rules.entries()) {
      if (rule.tools && !rule.tools.includes(request.toolName)) continue;
      const key = `${index}\u0000${ceilingKey(rule.per, request)}`;
      let bucket = this.#buckets.get(key);
      if (!bucket) {
        bucket = new TokenBucket(rule.capacity, rule.refillPerSecond, request.now);
        this.#buckets.set(key, bucket);
      }
      const retryAfterMs = bucket.msUntilToken(request.now);
      if (retryAfterMs > 0) {
        return {
          allowed: false,
          retryAfterMs,
          limit: `${rule.capacity} per ${rule.per} (refill ${rule.refillPerSecond}/s)`,
        };
      }
      matched.push(bucket);
    }
    // Take only once every bucket had room, so a refused call costs nothing.
    for (const bucket of matched) bucket.take(request.now);
    return { allowed: true };
  }
}
