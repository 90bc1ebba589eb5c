/**
 * @module Ceilings kept in Redis, so every instance counts against the same limits: the rule language of
 * `SlidingWindowCeilings`, counted by `rate-limiter-flexible` (an atomic increment per counter, in a Lua
 * script) over `ioredis`. Both are optional peers: only a deployment that shares ceilings installs them.
 */
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { ceilingKey } from "../../policy/ceiling-key.js";
import type { CeilingDecision, CeilingRequest, Ceilings } from "../../policy/ports.js";
import { checkRule, describeRule, type RateLimitRule, ruleApplies } from "../../policy/rate-limit-rule.js";

/** What a call does while Redis cannot be asked: changes are always refused; reads may run uncounted. */
export type CeilingsUnavailableMode = "deny" | "allow-reads";

export interface RedisCeilingsOptions {
  /** `redis://[user:password@]host:port[/db]`. */
  url: string;
  rules: readonly RateLimitRule[];
  /** Default `allow-reads`: a read runs uncounted while Redis is down; anything else is refused. */
  onUnavailable?: CeilingsUnavailableMode;
  /** Prefix of every key; instances that share limits share it (default `toolreg:ceilings`). */
  keyPrefix?: string;
}

/** How long a refused caller is told to wait while Redis cannot be reached. */
const UNAVAILABLE_RETRY_MS = 1_000;
/** A Redis that accepts the connection but does not answer is as good as down: refuse after this. */
const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 2_000;

interface Counter {
  readonly rule: RateLimitRule;
  readonly limiter: RateLimiterRedis;
  readonly description: string;
}

type Counted = { counter: Counter; key: string; outcome: PromiseSettledResult<RateLimiterRes> };

export class RedisCeilings implements Ceilings {
  readonly #client: Redis;
  readonly #counters: readonly Counter[];
  readonly #onUnavailable: CeilingsUnavailableMode;

  private constructor(client: Redis, options: RedisCeilingsOptions) {
    this.#client = client;
    this.#onUnavailable = options.onUnavailable ?? "allow-reads";
    const prefix = options.keyPrefix ?? "toolreg:ceilings";
    this.#counters = options.rules.flatMap((rule) => countersOf(rule, client, prefix));
  }

  /**
   * Connects and waits for the first answer; a Redis that cannot be reached does not stop the opening (the
   * client keeps reconnecting, and calls are refused or let through as `onUnavailable` says meanwhile).
   */
  static async open(options: RedisCeilingsOptions): Promise<RedisCeilings> {
    for (const rule of options.rules) checkRedisRule(rule);
    const client = new Redis(options.url, {
      lazyConnect: true,
      // Queued commands would hold calls while Redis is away; failing them at once is the point.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
    });
    // ioredis reports each failed reconnection as an event; the refusals already say Redis is away.
    client.on("error", () => {});
    await client.connect().catch(() => {});
    return new RedisCeilings(client, options);
  }

  async take(request: CeilingRequest): Promise<CeilingDecision> {
    const applying = this.#counters.filter((counter) => ruleApplies(counter.rule, request));
    if (applying.length === 0) return { allowed: true };
    const keyed = applying.map((counter) => ({ counter, key: ceilingKey(counter.rule.per, request) }));
    const outcomes = await Promise.allSettled(keyed.map(({ counter, key }) => counter.limiter.consume(key)));
    const counted: Counted[] = keyed.map((entry, index) => ({
      ...entry,
      outcome: outcomes[index] as PromiseSettledResult<RateLimiterRes>,
    }));
    const failed = counted.some(({ outcome }) => isStoreError(outcome));
    if (failed && this.#onUnavailable === "allow-reads" && request.effect === "read")
      return { allowed: true };
    let refusal: { retryAfterMs: number; limit: string } | undefined;
    for (const { counter, outcome } of counted) {
      if (outcome.status !== "rejected" || isStoreError(outcome)) continue;
      const retryAfterMs = Math.max(1, (outcome.reason as RateLimiterRes).msBeforeNext);
      if (retryAfterMs > (refusal?.retryAfterMs ?? 0)) refusal = { retryAfterMs, limit: counter.description };
    }
    if (!failed && !refusal) return { allowed: true };
    // Every counter that counted this call gives it back, so a refused call is charged to none of them.
    await Promise.allSettled(
      counted
        .filter(({ outcome }) => !isStoreError(outcome))
        .map(({ counter, key }) => counter.limiter.reward(key, 1)),
    );
    if (refusal && !failed) return { allowed: false, ...refusal };
    return {
      allowed: false,
      retryAfterMs: UNAVAILABLE_RETRY_MS,
      unavailable: "the ceilings store (Redis) is unreachable",
    };
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    if (this.#client.status === "ready") await this.#client.quit().catch(() => {});
    this.#client.disconnect();
  }
}

/** A rejection that is not a count: Redis could not be asked (down, not ready, timed out). */
function isStoreError(outcome: PromiseSettledResult<RateLimiterRes>): boolean {
  return outcome.status === "rejected" && !(outcome.reason instanceof RateLimiterRes);
}

/** Redis counts whole seconds: a window must be one. */
function checkRedisRule(rule: RateLimitRule): void {
  checkRule(rule);
  if (!Number.isSafeInteger(rule.windowMs) || rule.windowMs < 1_000 || rule.windowMs % 1_000 !== 0) {
    throw new RangeError("a rate limit kept in Redis has a window of whole seconds");
  }
}

/**
 * A rule's counters: its window, and beside it for a burst, `burst` calls per `burst / limit` of the window
 * (rounded up to a second) — the token bucket's rate, counted as windows Redis can hold.
 */
function countersOf(rule: RateLimitRule, client: Redis, prefix: string): Counter[] {
  // Keyed by what the rule says, not where it stands in the list: instances agree whatever their order.
  const id = createHash("sha256")
    .update(JSON.stringify(ruleIdentity(rule)))
    .digest("hex")
    .slice(0, 16);
  const description = describeRule(rule);
  const limiter = (points: number, seconds: number, suffix: string) =>
    new RateLimiterRedis({
      storeClient: client,
      points,
      duration: seconds,
      keyPrefix: `${prefix}:${id}${suffix}`,
      rejectIfRedisNotReady: true,
    });
  const counters = [{ rule, description, limiter: limiter(rule.limit, rule.windowMs / 1_000, "") }];
  if (rule.burst !== undefined) {
    const seconds = Math.ceil((rule.windowMs * rule.burst) / rule.limit / 1_000);
    counters.push({ rule, description, limiter: limiter(rule.burst, seconds, ":burst") });
  }
  return counters;
}

function ruleIdentity(rule: RateLimitRule): unknown[] {
  return [rule.per, rule.limit, rule.windowMs, rule.burst, rule.tenant, rule.principal, rule.tool];
}
