/** @module In-process ceilings: token buckets per tenant, principal or tool key. */
import type { CeilingDecision, Ceilings } from "./ports.js";

export interface CeilingRule {
  /** What one bucket counts: all calls of a tenant, of a principal, or of a principal on one tool. */
  per: "tenant" | "principal" | "tool";
  /** Burst size. */
  capacity: number;
  refillPerSecond: number;
  /** Restrict the rule to these tools; all tools when omitted. */
  tools?: readonly string[];
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class TokenBucketCeilings implements Ceilings {
  readonly #rules: readonly CeilingRule[];
  readonly #buckets = new Map<string, Bucket>();

  constructor(rules: readonly CeilingRule[]) {
    for (const rule of rules) {
      if (!(rule.capacity >= 1) || !(rule.refillPerSecond > 0)) {
        throw new RangeError("a ceiling needs capacity >= 1 and refillPerSecond > 0");
      }
    }
    this.#rules = rules;
  }

  take(request: { tenantId: string; principalId: string; toolName: string; now: number }): CeilingDecision {
    const matched: { key: string; bucket: Bucket; rule: CeilingRule }[] = [];
    for (const [index, rule] of this.#rules.entries()) {
      if (rule.tools && !rule.tools.includes(request.toolName)) continue;
      const key = `${index}\u0000${bucketKey(rule, request)}`;
      const bucket = this.#refilled(key, rule, request.now);
      if (bucket.tokens < 1) {
        return {
          allowed: false,
          retryAfterMs: Math.ceil(((1 - bucket.tokens) / rule.refillPerSecond) * 1000),
          limit: `${rule.capacity} per ${rule.per} (refill ${rule.refillPerSecond}/s)`,
        };
      }
      matched.push({ key, bucket, rule });
    }
    // Take only once every bucket had room, so a refused call costs nothing.
    for (const { bucket } of matched) bucket.tokens -= 1;
    return { allowed: true };
  }

  #refilled(key: string, rule: CeilingRule, now: number): Bucket {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      bucket = { tokens: rule.capacity, updatedAt: now };
      this.#buckets.set(key, bucket);
      return bucket;
    }
    const elapsedSeconds = Math.max(0, now - bucket.updatedAt) / 1000;
    bucket.tokens = Math.min(rule.capacity, bucket.tokens + elapsedSeconds * rule.refillPerSecond);
    bucket.updatedAt = now;
    return bucket;
  }
}

function bucketKey(
  rule: CeilingRule,
  request: { tenantId: string; principalId: string; toolName: string },
): string {
  switch (rule.per) {
    case "tenant":
      return request.tenantId;
    case "principal":
      return `${request.tenantId}\u0000${request.principalId}`;
    case "tool":
      return `${request.tenantId}\u0000${request.principalId}\u0000${request.toolName}`;
  }
}
