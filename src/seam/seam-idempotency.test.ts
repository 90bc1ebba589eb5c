import { describe, expect, it } from "vitest";
import { ToolFailure } from "../errors/tool-failure.js";
import { createScriptedTool } from "../test/scripted-tool.js";
import { createTestHarness } from "../test/test-harness.js";
import { fingerprintOf } from "./idempotency-key.js";

/** An external-write tool approved by policy, so idempotency can be tested without parking. */
function writeTool(
  steps: Parameters<typeof createScriptedTool>[0],
  extra: Parameters<typeof createScriptedTool>[1] = {},
) {
  return createScriptedTool(steps, {
    name: "create_ticket",
    effect: "external-write",
    approval: "policy",
    overrideReason: "tests idempotency without parking",
    ...extra,
  });
}
const allowAll = { decide: () => ({ decision: "allow" as const, reason: "test" }) };

describe("seam: idempotency", () => {
  it("runs once per key and replays the stored result, success or error", async () => {
    const tool = writeTool([
      (input) => ({ content: "created", data: input }),
      new ToolFailure("upstream_error", "vendor 500"),
    ]);
    const { seam, context } = createTestHarness([tool], { approvalPolicy: allowAll });
    const first = await seam.call(context({ toolCallId: "a" }), "create_ticket", { title: "x" });
    expect(await seam.call(context({ toolCallId: "a" }), "create_ticket", { title: "x" })).toEqual(first);
    const failed = await seam.call(context({ toolCallId: "b" }), "create_ticket", { title: "y" });
    expect(failed).toMatchObject({ ok: false, error: { code: "upstream_error" } });
    expect(await seam.call(context({ toolCallId: "b" }), "create_ticket", { title: "y" })).toEqual(failed);
    expect(tool.calls).toHaveLength(2);
    expect(tool.calls.map((call) => call.context.idempotencyKey)).toEqual([
      'call:["r1","a"]',
      'call:["r1","b"]',
    ]);
  });

  it("the same key with other arguments runs nothing", async () => {
    const tool = writeTool(["created"]);
    const { seam, context } = createTestHarness([tool], { approvalPolicy: allowAll });
    await seam.call(context({ idempotencyKey: "host-key-1" }), "create_ticket", { title: "x" });
    const conflict = await seam.call(context({ idempotencyKey: "host-key-1" }), "create_ticket", {
      title: "z",
    });
    expect(conflict).toMatchObject({ ok: false, error: { code: "idempotency_conflict", retryable: false } });
    expect(tool.calls).toHaveLength(1);
    expect(tool.calls[0]?.context.idempotencyKey).toBe("host-key-1");
  });

  it("a key in flight answers in_progress (retryable), or waits for the result when asked", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tool = writeTool([
      async () => {
        await gate;
        return "done";
      },
    ]);
    const { seam, context } = createTestHarness([tool], { approvalPolicy: allowAll });
    const first = seam.call(context({ toolCallId: "k" }), "create_ticket", {});
    const busy = await seam.call(context({ toolCallId: "k" }), "create_ticket", {});
    expect(busy).toMatchObject({ ok: false, error: { code: "in_progress", retryable: true } });
    const waiting = seam.call(context({ toolCallId: "k" }), "create_ticket", {}, { onInProgress: "wait" });
    release();
    expect(await first).toEqual({ ok: true, content: "done" });
    expect(await waiting).toEqual({ ok: true, content: "done" });
    expect(tool.calls).toHaveLength(1);
  });

  it("after a lease expires, only a tool whose provider deduplicates on the key runs again; any other write is unknown", async () => {
    const write = writeTool(["written"], { limits: { timeoutMs: 1000 } });
    const deduplicated = writeTool(["sent once upstream"], {
      name: "send_keyed",
      upstreamDeduplicates: true,
      limits: { timeoutMs: 1000 },
    });
    const destroy = writeTool(["destroyed"], {
      name: "delete_ticket",
      effect: "destructive",
      limits: { timeoutMs: 1000 },
    });
    const { seam, context, stores, clock } = createTestHarness([write, deduplicated, destroy], {
      approvalPolicy: allowAll,
      leaseGraceMs: 0,
    });
    const startedAt = clock.now();
    // A claim whose holder died: taken directly in the store, as a crashed process would have left it.
    for (const toolName of ["create_ticket", "send_keyed", "delete_ticket"]) {
      await stores.idempotency.claim({
        tenantId: "t1",
        key: `call:["r1","${toolName}"]`,
        fingerprint: fingerprintOf("p1", toolName, "{}"),
        toolName,
        claimId: "dead",
        principalId: "p1",
        holder: "gone:1",
        reclaimable: false,
        now: startedAt,
        leaseMs: 1000,
        retentionMs: 1000,
      });
    }
    clock.advance(1001);
    expect(await seam.call(context({ toolCallId: "send_keyed" }), "send_keyed", {})).toEqual({
      ok: true,
      content: "sent once upstream",
    });
    for (const name of ["create_ticket", "delete_ticket"]) {
      const unknown = await seam.call(context({ toolCallId: name }), name, {});
      expect(unknown, name).toMatchObject({
        ok: false,
        error: {
          code: "idempotency_conflict",
          retryable: false,
          details: { status: "unknown", startedAt, by: "p1", holder: "gone:1", lastHeartbeat: startedAt },
        },
      });
      // Asked again later, still unknown: never run.
      clock.advance(60_000);
      expect(await seam.call(context({ toolCallId: name }), name, {}), name).toMatchObject({
        error: { details: { status: "unknown" } },
      });
    }
    expect(write.calls).toHaveLength(0);
    expect(destroy.calls).toHaveLength(0);
    expect(deduplicated.calls).toHaveLength(1);
    expect((await stores.idempotency.list({ tenantId: "t1", status: "unknown" })).map((r) => r.key)).toEqual([
      'call:["r1","create_ticket"]',
      'call:["r1","delete_ticket"]',
    ]);
  });

  it("a running call's heartbeat keeps its claim alive past the first lease", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = writeTool([
      async () => {
        await gate;
        return "done";
      },
    ]);
    const { seam, context, stores } = createTestHarness([slow], {
      approvalPolicy: allowAll,
      heartbeatMs: 20,
      leaseGraceMs: 30,
      clock: Date.now,
    });
    const running = seam.call(context({ toolCallId: "slow" }), "create_ticket", {});
    const key = 'call:["r1","slow"]';
    await new Promise((resolve) => setTimeout(resolve, 40));
    const first = await stores.idempotency.get({ tenantId: "t1", key });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const later = await stores.idempotency.get({ tenantId: "t1", key });
    // Long past the first lease (20 + 30 ms), the claim is renewed, not lost.
    expect(later?.heartbeatAt).toBeGreaterThan(first?.heartbeatAt ?? Number.POSITIVE_INFINITY);
    expect(later?.leaseUntil).toBeGreaterThan(Date.now());
    expect(await seam.call(context({ toolCallId: "slow" }), "create_ticket", {})).toMatchObject({
      error: { code: "in_progress" },
    });
    release();
    expect(await running).toEqual({ ok: true, content: "done" });
    expect(slow.calls).toHaveLength(1);
  });

  it("keys are per tenant", async () => {
    const tool = writeTool([(_input, context) => context.tenantId]);
    const { seam, context } = createTestHarness([tool], { approvalPolicy: allowAll });
    const a = await seam.call(context({ tenantId: "ta", idempotencyKey: "k" }), "create_ticket", { v: 1 });
    const b = await seam.call(context({ tenantId: "tb", idempotencyKey: "k" }), "create_ticket", { v: 2 });
    expect([a, b]).toEqual([
      { ok: true, content: "ta" },
      { ok: true, content: "tb" },
    ]);
  });

  it("a colleague's call under the same key is refused, never answered with the first result nor run", async () => {
    // The tool deduplicates on the key itself, as a vendor's API does: a second run would be lost there.
    const seen = new Set<string>();
    const tool = writeTool([
      (input, context) => {
        seen.add(context.idempotencyKey as string);
        return { content: `for ${context.principalId}`, data: input };
      },
    ]);
    const { seam, context } = createTestHarness([tool], { approvalPolicy: allowAll });
    const mine = await seam.call(context({ principalId: "p1", idempotencyKey: "k" }), "create_ticket", {
      v: 1,
    });
    for (const input of [{ v: 1 }, { v: 2 }]) {
      const theirs = await seam.call(
        context({ principalId: "p2", idempotencyKey: "k" }),
        "create_ticket",
        input,
      );
      expect(theirs).toMatchObject({ ok: false, error: { code: "idempotency_conflict", retryable: false } });
      expect(JSON.stringify(theirs)).not.toContain("for p1");
    }
    expect(
      await seam.call(context({ principalId: "p1", idempotencyKey: "k" }), "create_ticket", { v: 1 }),
    ).toEqual(mine);
    expect(tool.calls).toHaveLength(1);
    expect([...seen]).toEqual(["k"]);
  });
});
