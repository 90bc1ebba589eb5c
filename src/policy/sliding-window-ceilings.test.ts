import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runCeilingsConformance } from "./ceilings.conformance.js";
import { windowShape } from "./sliding-count.js";
import { type RateLimitRule, SlidingWindowCeilings } from "./sliding-window-ceilings.js";

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0, 0);

runCeilingsConformance("sliding window (in process)", async (rules) => ({
  ceilings: new SlidingWindowCeilings(rules),
  cleanup: async () => {},
}));

function taker(rules: RateLimitRule[]) {
  const ceilings = new SlidingWindowCeilings(rules);
  return (now: number) =>
    ceilings.take({ tenantId: "acme", principalId: "agent-1", toolName: "calculate", effect: "read", now });
}

describe("SlidingWindowCeilings", () => {
  it("admits exactly 100 of 150 calls made within a minute, the first 100", async () => {
    const take = taker([{ per: "principal", limit: 100, windowMs: MINUTE }]);
    // Spread over 1.5 s: a token bucket of 100 refilled at 100/min would admit 102 of these.
    const admitted: boolean[] = [];
    for (let i = 0; i < 150; i++) admitted.push((await take(T0 + i * 10)).allowed);
    expect(admitted.filter(Boolean)).toHaveLength(100);
    expect(admitted.indexOf(false)).toBe(100);
  });

  it("admits exactly the limit whatever slot the burst starts in, and none more until a minute has passed", async () => {
    for (const offset of [0, 1, 999, 59_999]) {
      const take = taker([{ per: "principal", limit: 100, windowMs: MINUTE }]);
      const start = T0 + offset;
      let admitted = 0;
      for (let i = 0; i < 150; i++) if ((await take(start + i * 300)).allowed) admitted++;
      expect(admitted, `offset ${offset}`).toBe(100);
      // The first call (at start) stops counting between one minute and one minute and a slot later.
      expect((await take(start + MINUTE - 1)).allowed).toBe(false);
      expect((await take(start + MINUTE + 1_000)).allowed).toBe(true);
    }
  });

  it("tells a refused caller when a call will be admitted, at most one slot late", async () => {
    const take = taker([{ per: "principal", limit: 3, windowMs: MINUTE }]);
    expect((await take(T0)).allowed).toBe(true);
    expect((await take(T0 + 10_000)).allowed).toBe(true);
    expect((await take(T0 + 20_000)).allowed).toBe(true);
    const refused = await take(T0 + 30_000);
    expect(refused).toMatchObject({ allowed: false, limit: "3 calls per minute per principal" });
    if (refused.allowed) throw new Error("unreachable");
    // The call at T0 counts until 60 s after it, and at most one slot (1 s) more.
    expect(refused.retryAfterMs).toBeGreaterThanOrEqual(30_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(31_000);
    expect((await take(T0 + 30_000 + refused.retryAfterMs - 1)).allowed).toBe(false);
    expect((await take(T0 + 30_000 + refused.retryAfterMs)).allowed).toBe(true);
    // Now the call at T0 + 10 s is the oldest: the next wait ends when it leaves.
    const next = await take(T0 + 30_000 + refused.retryAfterMs);
    expect(next.allowed).toBe(false);
    if (next.allowed) throw new Error("unreachable");
    expect(T0 + 30_000 + refused.retryAfterMs + next.retryAfterMs).toBe(T0 + 10_000 + 61_000);
  });

  it("spreads a window's calls out with a burst, and still admits no more than the limit in a window", async () => {
    const take = taker([{ per: "principal", limit: 100, windowMs: MINUTE, burst: 10 }]);
    for (let i = 0; i < 10; i++) expect((await take(T0)).allowed).toBe(true);
    const refused = await take(T0);
    expect(refused).toMatchObject({
      allowed: false,
      retryAfterMs: 600,
      limit: "100 calls per minute per principal, at most 10 at once",
    });
    expect((await take(T0 + 599)).allowed).toBe(false);
    expect((await take(T0 + 600)).allowed).toBe(true);
    // A call every 100 ms for the rest of the minute: the bucket alone would let 10 + 59.4 / 0.6 = 109
    // through; the window holds them to 100.
    let admitted = 11;
    for (let at = T0 + 700; at < T0 + MINUTE; at += 100) if ((await take(at)).allowed) admitted++;
    expect(admitted).toBe(100);
  });

  it("never admits more than the limit in any window, and refuses only when the limit was reached within a window and two slots", async () => {
    const limit = 3;
    const windowMs = 1_000;
    // An admitted call counts for at most this long (one window and less than two slots).
    const { ring, slotMs } = windowShape(windowMs);
    const heldMs = ring * slotMs;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 120 }), { minLength: 100, maxLength: 300 }),
        async (gaps) => {
          const take = taker([{ per: "principal", limit, windowMs }]);
          const admitted: number[] = [];
          let now = T0;
          for (const gap of gaps) {
            now += gap;
            const inWindow = admitted.filter((at) => at > now - windowMs).length;
            const held = admitted.filter((at) => at > now - heldMs).length;
            if ((await take(now)).allowed) {
              admitted.push(now);
              expect(inWindow).toBeLessThan(limit);
            } else {
              expect(held).toBeGreaterThanOrEqual(limit);
            }
          }
        },
      ),
    );
  });
});
