import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { windowShape } from "./sliding-count.js";
import { type RateLimitRule, SlidingWindowCeilings } from "./sliding-window-ceilings.js";

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0, 0);

function taker(rules: RateLimitRule[]) {
  const ceilings = new SlidingWindowCeilings(rules);
  return (now: number, call: { tenant?: string; principal?: string; tool?: string } = {}) =>
    ceilings.take({
      tenantId: call.tenant ?? "acme",
      principalId: call.principal ?? "agent-1",
      toolName: call.tool ?? "calculate",
      now,
    });
}

describe("SlidingWindowCeilings", () => {
  it("admits exactly 100 of 150 calls made within a minute, the first 100", () => {
    const take = taker([{ per: "principal", limit: 100, windowMs: MINUTE }]);
    // Spread over 1.5 s: a token bucket of 100 refilled at 100/min would admit 102 of these.
    const admitted = Array.from({ length: 150 }, (_, i) => take(T0 + i * 10).allowed);
    expect(admitted.filter(Boolean)).toHaveLength(100);
    expect(admitted.indexOf(false)).toBe(100);
  });

  it("admits exactly the limit whatever slot the burst starts in, and none more until a minute has passed", () => {
    for (const offset of [0, 1, 999, 59_999]) {
      const take = taker([{ per: "principal", limit: 100, windowMs: MINUTE }]);
      const start = T0 + offset;
      let admitted = 0;
      for (let i = 0; i < 150; i++) if (take(start + i * 300).allowed) admitted++;
      expect(admitted, `offset ${offset}`).toBe(100);
      // The first call (at start) stops counting between one minute and one minute and a slot later.
      expect(take(start + MINUTE - 1).allowed).toBe(false);
      expect(take(start + MINUTE + 1_000).allowed).toBe(true);
    }
  });

  it("tells a refused caller when a call will be admitted, at most one slot late", () => {
    const take = taker([{ per: "principal", limit: 3, windowMs: MINUTE }]);
    expect(take(T0).allowed).toBe(true);
    expect(take(T0 + 10_000).allowed).toBe(true);
    expect(take(T0 + 20_000).allowed).toBe(true);
    const refused = take(T0 + 30_000);
    expect(refused).toMatchObject({ allowed: false, limit: "3 calls per minute per principal" });
    if (refused.allowed) throw new Error("unreachable");
    // The call at T0 counts until 60 s after it, and at most one slot (1 s) more.
    expect(refused.retryAfterMs).toBeGreaterThanOrEqual(30_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(31_000);
    expect(take(T0 + 30_000 + refused.retryAfterMs - 1).allowed).toBe(false);
    expect(take(T0 + 30_000 + refused.retryAfterMs).allowed).toBe(true);
    // Now the call at T0 + 10 s is the oldest: the next wait ends when it leaves.
    const next = take(T0 + 30_000 + refused.retryAfterMs);
    expect(next.allowed).toBe(false);
    if (next.allowed) throw new Error("unreachable");
    expect(T0 + 30_000 + refused.retryAfterMs + next.retryAfterMs).toBe(T0 + 10_000 + 61_000);
  });

  it("counts per tenant, per principal, or per principal and tool", () => {
    const tenant = taker([{ per: "tenant", limit: 2, windowMs: MINUTE }]);
    expect(tenant(T0, { principal: "a" }).allowed).toBe(true);
    expect(tenant(T0, { principal: "b", tool: "other" }).allowed).toBe(true);
    expect(tenant(T0, { principal: "c" }).allowed).toBe(false);
    expect(tenant(T0, { tenant: "beta" }).allowed).toBe(true);

    const principal = taker([{ per: "principal", limit: 2, windowMs: MINUTE }]);
    expect(principal(T0, { tool: "one" }).allowed).toBe(true);
    expect(principal(T0, { tool: "two" }).allowed).toBe(true);
    expect(principal(T0, { tool: "three" }).allowed).toBe(false);
    expect(principal(T0, { principal: "agent-2" }).allowed).toBe(true);
    // A principal id is a tenant's: the same id in another tenant is someone else.
    expect(principal(T0, { tenant: "beta" }).allowed).toBe(true);

    const tool = taker([{ per: "tool", limit: 1, windowMs: MINUTE }]);
    expect(tool(T0, { tool: "one" }).allowed).toBe(true);
    expect(tool(T0, { tool: "one" }).allowed).toBe(false);
    expect(tool(T0, { tool: "two" }).allowed).toBe(true);
    expect(tool(T0, { tool: "one", principal: "agent-2" }).allowed).toBe(true);
  });

  it("applies a rule scoped to a tenant, a principal or a tool to those calls only", () => {
    const take = taker([
      { per: "tenant", tenant: "acme", limit: 1, windowMs: MINUTE },
      { per: "principal", principal: "agent-7", limit: 1, windowMs: MINUTE },
      { per: "tool", tool: "crm_write", limit: 1, windowMs: MINUTE },
    ]);
    expect(take(T0, { tenant: "acme" }).allowed).toBe(true);
    expect(take(T0, { tenant: "acme", principal: "someone-else" })).toMatchObject({
      allowed: false,
      limit: "1 call per minute for tenant acme",
    });
    expect(take(T0, { tenant: "beta", principal: "agent-7" }).allowed).toBe(true);
    expect(take(T0, { tenant: "beta", principal: "agent-7" })).toMatchObject({
      allowed: false,
      limit: "1 call per minute for principal agent-7",
    });
    expect(take(T0, { tenant: "beta", principal: "agent-8" }).allowed).toBe(true);
    expect(take(T0, { tenant: "beta", principal: "agent-8", tool: "crm_write" }).allowed).toBe(true);
    expect(take(T0, { tenant: "beta", principal: "agent-8", tool: "crm_write" })).toMatchObject({
      allowed: false,
      limit: "1 call per minute per principal on crm_write",
    });
    expect(take(T0, { tenant: "beta", principal: "agent-9", tool: "crm_write" }).allowed).toBe(true);
  });

  it("charges a refused call to no counter, the rules that had room included", () => {
    const take = taker([
      { per: "principal", limit: 2, windowMs: MINUTE },
      { per: "tenant", limit: 3, windowMs: MINUTE },
    ]);
    expect(take(T0, { principal: "a" }).allowed).toBe(true);
    expect(take(T0, { principal: "a" }).allowed).toBe(true);
    // Refused by the principal's rule: the tenant's count stays at 2.
    for (let i = 0; i < 5; i++) expect(take(T0, { principal: "a" }).allowed).toBe(false);
    expect(take(T0, { principal: "b" }).allowed).toBe(true);
    expect(take(T0, { principal: "b" })).toMatchObject({
      allowed: false,
      limit: "3 calls per minute per tenant",
    });
  });

  it("tells the longest wait when several rules refuse", () => {
    const take = taker([
      { per: "principal", limit: 1, windowMs: 10_000 },
      { per: "tenant", limit: 1, windowMs: MINUTE },
    ]);
    expect(take(T0).allowed).toBe(true);
    const refused = take(T0 + 1);
    expect(refused).toMatchObject({ allowed: false, limit: "1 call per minute per tenant" });
    if (refused.allowed) throw new Error("unreachable");
    expect(refused.retryAfterMs).toBeGreaterThan(59_000);
  });

  it("spreads a window's calls out with a burst, and still admits no more than the limit in a window", () => {
    const take = taker([{ per: "principal", limit: 100, windowMs: MINUTE, burst: 10 }]);
    for (let i = 0; i < 10; i++) expect(take(T0).allowed).toBe(true);
    const refused = take(T0);
    expect(refused).toMatchObject({
      allowed: false,
      retryAfterMs: 600,
      limit: "100 calls per minute per principal, at most 10 at once",
    });
    expect(take(T0 + 599).allowed).toBe(false);
    expect(take(T0 + 600).allowed).toBe(true);
    // A call every 100 ms for the rest of the minute: the bucket alone would let 10 + 59.4 / 0.6 = 109
    // through; the window holds them to 100.
    let admitted = 11;
    for (let at = T0 + 700; at < T0 + MINUTE; at += 100) if (take(at).allowed) admitted++;
    expect(admitted).toBe(100);
  });

  it("never admits more than the limit in any window, and refuses only when the limit was reached within a window and two slots", () => {
    const limit = 3;
    const windowMs = 1_000;
    // An admitted call counts for at most this long (one window and less than two slots).
    const { ring, slotMs } = windowShape(windowMs);
    const heldMs = ring * slotMs;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 120 }), { minLength: 100, maxLength: 300 }), (gaps) => {
        const take = taker([{ per: "principal", limit, windowMs }]);
        const admitted: number[] = [];
        let now = T0;
        for (const gap of gaps) {
          now += gap;
          const inWindow = admitted.filter((at) => at > now - windowMs).length;
          const held = admitted.filter((at) => at > now - heldMs).length;
          if (take(now).allowed) {
            admitted.push(now);
            expect(inWindow).toBeLessThan(limit);
          } else {
            expect(held).toBeGreaterThanOrEqual(limit);
          }
        }
      }),
    );
  });

  it("refuses rules it cannot hold", () => {
    expect(() => new SlidingWindowCeilings([{ per: "principal", limit: 0, windowMs: MINUTE }])).toThrow(
      RangeError,
    );
    expect(() => new SlidingWindowCeilings([{ per: "principal", limit: 1.5, windowMs: MINUTE }])).toThrow(
      RangeError,
    );
    expect(() => new SlidingWindowCeilings([{ per: "principal", limit: 5, windowMs: 0 }])).toThrow(
      RangeError,
    );
    expect(
      () => new SlidingWindowCeilings([{ per: "principal", limit: 5, windowMs: MINUTE, burst: 6 }]),
    ).toThrow(RangeError);
    expect(
      () => new SlidingWindowCeilings([{ per: "everyone" as "tenant", limit: 5, windowMs: MINUTE }]),
    ).toThrow(RangeError);
  });
});
