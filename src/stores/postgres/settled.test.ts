/** @module A caller on one instance waiting on another instance's call is woken by PostgreSQL, not a poll. */
import { describe, expect, it } from "vitest";
import { withScratchSchema } from "../../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../../test/support/sql.js";
import type { ClaimInput, IdempotencyStore } from "../../ports/stores.js";

const reachable = await postgresAvailable("settled notifications");

const claimOf = (key: string): ClaimInput => ({
  tenantId: "acme",
  key,
  fingerprint: "fp",
  toolName: "send_email",
  claimId: `claim-${key}`,
  principalId: "agent",
  holder: "instance-a",
  reclaimable: false,
  now: Date.now(),
  leaseMs: 30_000,
  retentionMs: 86_400_000,
});

/** How long `settled` took to return, in milliseconds. */
async function timed(store: IdempotencyStore, key: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  await store.settled?.({ tenantId: "acme", key, timeoutMs });
  return performance.now() - started;
}

const after = (ms: number, act: () => Promise<unknown>) =>
  new Promise<void>((resolve, reject) => setTimeout(() => act().then(() => resolve(), reject), ms));

describe.runIf(reachable)("settled notifications", () => {
  it("wakes a waiter on another instance when the call completes, or is abandoned as unknown", () =>
    withScratchSchema(async (scratch) => {
      const a = scratch.stores.idempotency;
      const b = (await scratch.another()).idempotency;
      expect(b.settled).toBeTypeOf("function");
      for (const [key, settle] of [
        [
          "completed",
          () => a.complete({ ...ref("completed"), envelope: { ok: true, content: "sent" }, retentionMs: 1 }),
        ],
        ["abandoned", () => a.abandon(ref("abandoned"))],
      ] as const) {
        await a.claim(claimOf(key));
        // Let the waiter's LISTEN be in place first, so the notice is what wakes it.
        await b.settled?.({ tenantId: "acme", key, timeoutMs: 50 });
        const [elapsed] = await Promise.all([timed(b, key, 5_000), after(150, settle)]);
        expect(elapsed, key).toBeGreaterThanOrEqual(140);
        expect(elapsed, key).toBeLessThan(1_000);
      }
    }));

  it("returns at once for a claim that settled before the wait, and waits out its timeout otherwise", () =>
    withScratchSchema(async (scratch) => {
      const a = scratch.stores.idempotency;
      const b = (await scratch.another()).idempotency;
      await a.claim(claimOf("done"));
      await a.complete({ ...ref("done"), envelope: { ok: true, content: "sent" }, retentionMs: 1 });
      expect(await timed(b, "done", 5_000)).toBeLessThan(1_000);
      await a.claim(claimOf("running"));
      const other = a.claim(claimOf("other"));
      await other;
      // Another key settling does not wake this one.
      const [elapsed] = await Promise.all([
        timed(b, "running", 600),
        after(100, () =>
          a.complete({ ...ref("other"), envelope: { ok: true, content: "x" }, retentionMs: 1 }),
        ),
      ]);
      expect(elapsed).toBeGreaterThanOrEqual(580);
    }));
});

function ref(key: string) {
  return { tenantId: "acme", key, claimId: `claim-${key}`, now: Date.now() };
}
