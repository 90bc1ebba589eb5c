/**
 * @module In-process ceilings that hold exactly: "100 per minute" admits at most 100 calls in any minute,
 * and all of the first 100 of a burst (a token bucket admits its capacity plus what refilled meanwhile).
 * A rule may add a burst, a token bucket that spreads the window's calls out. Counters live in this
 * process: several instances each count their own calls.
 */
import { CEILING_LEVELS, type CeilingLevel, ceilingKey } from "./ceiling-key.js";
import type { CeilingDecision, Ceilings } from "./ports.js";
import { SlidingCount, type WindowShape, windowShape } from "./sliding-count.js";
import { TokenBucket } from "./token-bucket.js";

export interface RateLimitRule {
  /** What one counter counts: all calls of a tenant, of a principal, or of a principal on one tool. */
  per: CeilingLevel;
  /** Calls admitted in any window of `windowMs`. */
  limit: number;
  windowMs: number;
  /** At most this many at once, refilled at `limit` per window; the whole limit may come at once when omitted. */
  burst?: number;
  /** Only calls of this tenant count, and are limited. */
  tenant?: string;
  /** Only calls of principals with this id (in any tenant). */
  principal?: string;
  /** Only calls of this tool. */
  tool?: string;
}

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

  take(request: { tenantId: string; principalId: string; toolName: string; now: number }): CeilingDecision {
    const { now } = request;
    if (now - this.#sweptAt >= SWEEP_EVERY_MS) this.#sweep(now);
    const admitting: Counter[] = [];
    let refusal: { retryAfterMs: number; limit: string } | undefined;
    for (const compiled of this.#rules) {
      const { rule } = compiled;
      if (rule.tenant !== undefined && rule.tenant !== request.tenantId) continue;
      if (rule.principal !== undefined && rule.principal !== request.principalId) continue;
      if (rule.tool !== undefined && rule.tool !== request.toolName) continue;
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

  #counter(
    compiled: Compiled,
    request: { tenantId: string; principalId: string; toolName: string; now: number },
  ): Counter {
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

function checkRule(rule: RateLimitRule): void {
  if (!CEILING_LEVELS.includes(rule.per))
    throw new RangeError(`a rate limit is per ${CEILING_LEVELS.join(", ")}`);
  if (!Number.isSafeInteger(rule.limit) || rule.limit < 1) {
    throw new RangeError("a rate limit's limit is a whole number, at least 1");
  }
  if (
    rule.burst !== undefined &&
    (!Number.isSafeInteger(rule.burst) || rule.burst < 1 || rule.burst > rule.limit)
  ) {
    throw new RangeError("a rate limit's burst is a whole number from 1 to its limit");
  }
}

/** The rule as a person reads it, for the refusal's message: "100 calls per minute per principal". */
function describeRule(rule: RateLimitRule): string {
  const scope = [
    rule.per !== "tenant" && rule.tenant !== undefined ? ` in tenant ${rule.tenant}` : "",
    rule.per !== "principal" && rule.principal !== undefined ? ` of principal ${rule.principal}` : "",
    rule.tool === undefined ? "" : ` on ${rule.tool}`,
  ].join("");
  const calls = rule.limit === 1 ? "call" : "calls";
  const burst = rule.burst === undefined ? "" : `, at most ${rule.burst} at once`;
  return `${rule.limit} ${calls} per ${formatWindow(rule.windowMs)} ${countedBy(rule)}${scope}${burst}`;
}

function countedBy(rule: RateLimitRule): string {
  switch (rule.per) {
    case "tenant":
      return rule.tenant === undefined ? "per tenant" : `for tenant ${rule.tenant}`;
    case "principal":
      return rule.principal === undefined ? "per principal" : `for principal ${rule.principal}`;
    case "tool":
      // A tool's counter is a principal's on that tool: with the tool named, it is simply per principal.
      return rule.tool === undefined ? "per principal and tool" : "per principal";
  }
}

const UNITS: readonly [ms: number, name: string][] = [
  [86_400_000, "day"],
  [3_600_000, "hour"],
  [60_000, "minute"],
  [1_000, "second"],
  [1, "ms"],
];

function formatWindow(windowMs: number): string {
  const [ms, name] = UNITS.find(([unit]) => windowMs % unit === 0) ?? [1, "ms"];
  const count = windowMs / ms;
  if (count === 1) return name;
  return `${count} ${name === "ms" ? name : `${name}s`}`;
}
