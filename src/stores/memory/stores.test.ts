/** @module The memory adapters against the store conformance suite, and what only the memory audit store does. */
import { describe, expect, it } from "vitest";
import { runStoreConformance } from "../../../test/conformance/stores.js";
import type { AuditEvent } from "../../ports/stores.js";
import { createMemoryAuditStore } from "./audit.js";
import { createMemoryStores } from "./index.js";

runStoreConformance("memory", async () => ({ stores: createMemoryStores(), cleanup: async () => {} }));

describe("memory audit store", () => {
  const event = (n: number): AuditEvent => ({
    tenantId: "t",
    id: `e${n}`,
    at: n,
    kind: "tool-call",
    actor: "p",
    runId: undefined,
    toolCallId: undefined,
    tool: "look",
    toolVersion: undefined,
    effect: "read",
    outcome: "ok",
    durationMs: 1,
    approvalId: undefined,
    idempotencyKey: undefined,
    approval: undefined,
    message: undefined,
  });

  it("keeps a window of the newest events, 1,000 unless told otherwise, and drops the oldest", async () => {
    const store = createMemoryAuditStore();
    for (let n = 1; n <= 2_500; n++) store.record(event(n));
    const kept = await store.list({ tenantId: "t", limit: 5_000 });
    expect(kept.length).toBeGreaterThanOrEqual(500);
    expect(kept.length).toBeLessThanOrEqual(1_000);
    expect(kept[0]?.id).toBe("e2500");
    expect(kept.map((listed) => listed.at)).toEqual(
      [...kept.map((listed) => listed.at)].sort((a, b) => b - a),
    );

    const wide = createMemoryAuditStore({ maxEvents: 3_000 });
    for (let n = 1; n <= 2_500; n++) wide.record(event(n));
    expect(await wide.list({ tenantId: "t", limit: 5_000 })).toHaveLength(2_500);
  });
});
