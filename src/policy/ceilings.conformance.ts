/**
 * @module The one conformance suite every Ceilings adapter runs: the same rules admit the same counts, per
 * tenant, principal and tool, a refused call is charged nowhere and says when to retry. Calls are made at
 * the real time, so an adapter whose store keeps its own clock (Redis) runs it unchanged.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Effect } from "../declaration/effect.js";
import type { CeilingDecision, Ceilings } from "./ports.js";
import type { RateLimitRule } from "./rate-limit-rule.js";

export interface CeilingsFixture {
  ceilings: Ceilings;
  /** Closes what the adapter opened and deletes what it counted. */
  cleanup(): Promise<void>;
}

/** Opens a fresh adapter holding `rules`, sharing no counts with any adapter opened before. */
export type OpenCeilings = (rules: readonly RateLimitRule[]) => Promise<CeilingsFixture>;

const MINUTE = 60_000;

interface Call {
  tenant?: string;
  principal?: string;
  tool?: string;
  effect?: Effect;
}

/** Registers the suite for one adapter. */
export function runCeilingsConformance(name: string, open: OpenCeilings): void {
  describe(`${name} ceilings conformance`, () => {
    const opened: CeilingsFixture[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((fixture) => fixture.cleanup()));
    });

    async function taker(rules: readonly RateLimitRule[]) {
      const fixture = await open(rules);
      opened.push(fixture);
      return (call: Call = {}): Promise<CeilingDecision> =>
        fixture.ceilings.take({
          tenantId: call.tenant ?? "acme",
          principalId: call.principal ?? "agent-1",
          toolName: call.tool ?? "calculate",
          effect: call.effect ?? "read",
          now: Date.now(),
        });
    }

    it("admits the first `limit` calls of a burst and refuses the rest, saying which rule and when to retry", async () => {
      const take = await taker([{ per: "principal", limit: 10, windowMs: MINUTE }]);
      const decisions: CeilingDecision[] = [];
      for (let i = 0; i < 15; i++) decisions.push(await take());
      expect(decisions.map((decision) => decision.allowed)).toEqual([
        ...Array<boolean>(10).fill(true),
        ...Array<boolean>(5).fill(false),
      ]);
      const refused = decisions[14];
      expect(refused).toMatchObject({ allowed: false, limit: "10 calls per minute per principal" });
      if (!refused || refused.allowed || !("limit" in refused)) throw new Error("unreachable");
      expect(refused.retryAfterMs).toBeGreaterThan(MINUTE - 5_000);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(MINUTE + 1_000);
    });

    it("admits exactly the limit of calls made at once", async () => {
      const take = await taker([{ per: "tenant", limit: 20, windowMs: MINUTE }]);
      const decisions = await Promise.all(
        Array.from({ length: 60 }, (_, i) => take({ principal: `agent-${i % 7}` })),
      );
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(20);
    });

    it("counts per tenant, per principal, or per principal and tool", async () => {
      const tenant = await taker([{ per: "tenant", limit: 2, windowMs: MINUTE }]);
      expect((await tenant({ principal: "a" })).allowed).toBe(true);
      expect((await tenant({ principal: "b", tool: "other" })).allowed).toBe(true);
      expect((await tenant({ principal: "c" })).allowed).toBe(false);
      expect((await tenant({ tenant: "beta" })).allowed).toBe(true);

      const principal = await taker([{ per: "principal", limit: 2, windowMs: MINUTE }]);
      expect((await principal({ tool: "one" })).allowed).toBe(true);
      expect((await principal({ tool: "two" })).allowed).toBe(true);
      expect((await principal({ tool: "three" })).allowed).toBe(false);
      expect((await principal({ principal: "agent-2" })).allowed).toBe(true);
      // A principal id is a tenant's: the same id in another tenant is someone else.
      expect((await principal({ tenant: "beta" })).allowed).toBe(true);

      const tool = await taker([{ per: "tool", limit: 1, windowMs: MINUTE }]);
      expect((await tool({ tool: "one" })).allowed).toBe(true);
      expect((await tool({ tool: "one" })).allowed).toBe(false);
      expect((await tool({ tool: "two" })).allowed).toBe(true);
      expect((await tool({ tool: "one", principal: "agent-2" })).allowed).toBe(true);
    });

    it("applies a rule scoped to a tenant, a principal or a tool to those calls only", async () => {
      const take = await taker([
        { per: "tenant", tenant: "acme", limit: 1, windowMs: MINUTE },
        { per: "principal", principal: "agent-7", limit: 1, windowMs: MINUTE },
        { per: "tool", tool: "crm_write", limit: 1, windowMs: MINUTE },
      ]);
      expect((await take({ tenant: "acme" })).allowed).toBe(true);
      expect(await take({ tenant: "acme", principal: "someone-else" })).toMatchObject({
        allowed: false,
        limit: "1 call per minute for tenant acme",
      });
      expect((await take({ tenant: "beta", principal: "agent-7" })).allowed).toBe(true);
      expect(await take({ tenant: "beta", principal: "agent-7" })).toMatchObject({
        allowed: false,
        limit: "1 call per minute for principal agent-7",
      });
      expect((await take({ tenant: "beta", principal: "agent-8" })).allowed).toBe(true);
      expect((await take({ tenant: "beta", principal: "agent-8", tool: "crm_write" })).allowed).toBe(true);
      expect(await take({ tenant: "beta", principal: "agent-8", tool: "crm_write" })).toMatchObject({
        allowed: false,
        limit: "1 call per minute per principal on crm_write",
      });
      expect((await take({ tenant: "beta", principal: "agent-9", tool: "crm_write" })).allowed).toBe(true);
    });

    it("charges a refused call to no counter, the rules that had room included", async () => {
      const take = await taker([
        { per: "principal", limit: 2, windowMs: MINUTE },
        { per: "tenant", limit: 3, windowMs: MINUTE },
      ]);
      expect((await take({ principal: "a" })).allowed).toBe(true);
      expect((await take({ principal: "a" })).allowed).toBe(true);
      // Refused by the principal's rule: the tenant's count stays at 2.
      for (let i = 0; i < 5; i++) expect((await take({ principal: "a" })).allowed).toBe(false);
      expect((await take({ principal: "b" })).allowed).toBe(true);
      expect(await take({ principal: "b" })).toMatchObject({
        allowed: false,
        limit: "3 calls per minute per tenant",
      });
    });

    it("tells the longest wait when several rules refuse", async () => {
      const take = await taker([
        { per: "principal", limit: 1, windowMs: 10_000 },
        { per: "tenant", limit: 1, windowMs: MINUTE },
      ]);
      expect((await take()).allowed).toBe(true);
      const refused = await take();
      expect(refused).toMatchObject({ allowed: false, limit: "1 call per minute per tenant" });
      if (refused.allowed) throw new Error("unreachable");
      expect(refused.retryAfterMs).toBeGreaterThan(MINUTE - 5_000);
    });

    it("holds a burst: at most that many at once, whatever the window's limit", async () => {
      const take = await taker([{ per: "principal", limit: 100, windowMs: MINUTE, burst: 10 }]);
      for (let i = 0; i < 10; i++) expect((await take()).allowed).toBe(true);
      const refused = await take();
      expect(refused).toMatchObject({
        allowed: false,
        limit: "100 calls per minute per principal, at most 10 at once",
      });
      if (refused.allowed) throw new Error("unreachable");
      expect(refused.retryAfterMs).toBeGreaterThan(0);
    });

    it("refuses rules it cannot hold", async () => {
      const cannot: RateLimitRule[] = [
        { per: "principal", limit: 0, windowMs: MINUTE },
        { per: "principal", limit: 1.5, windowMs: MINUTE },
        { per: "principal", limit: 5, windowMs: 0 },
        { per: "principal", limit: 5, windowMs: MINUTE, burst: 6 },
        { per: "everyone" as "tenant", limit: 5, windowMs: MINUTE },
      ];
      for (const rule of cannot) {
        await expect(
          Promise.resolve().then(() => open([rule])),
          JSON.stringify(rule),
        ).rejects.toThrow(RangeError);
      }
    });
  });
}
