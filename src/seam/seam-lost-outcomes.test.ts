import { describe, expect, it } from "vitest";
import { createMemoryStores } from "../stores/memory/index.js";
import { createScriptedTool } from "../test/scripted-tool.js";
import { createTestHarness } from "../test/test-harness.js";
import { approvalIdOf, type Envelope } from "./envelope.js";

/** A promise the test settles, for a tool that runs until told to stop. */
function gate() {
  let release: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { opened, release };
}

function parkedId(envelope: Envelope): string {
  const id = approvalIdOf(envelope);
  if (!id) throw new Error(`expected a parked call, got ${JSON.stringify(envelope)}`);
  return id;
}

const allowAll = { decide: () => ({ decision: "allow" as const, reason: "test" }) };

describe("seam: an approved run whose process died", () => {
  it("is found lost and interrupted with its evidence; nothing but an operator's retry runs it again, once", async () => {
    const stores = createMemoryStores();
    // The first process: its tool never returns, as if the process had been killed mid-run.
    const hangs = createScriptedTool([() => new Promise(() => {})], {
      name: "post_note",
      effect: "external-write",
    });
    const first = createTestHarness([hangs], { stores, holder: "host-a:1" });
    const asker = first.context({ toolCallId: "call-1" });
    const id = parkedId(await first.seam.call(asker, "post_note", { text: "hi" }));
    expect(await first.seam.approve({ tenantId: "t1", approvalId: id, by: "carol" })).toMatchObject({
      ok: true,
    });
    void first.seam.resume(asker, id);
    await new Promise((resolve) => setTimeout(resolve, 10));

    // The next process sees the claim's lease lapse; its sweep settles the approval.
    const runs = createScriptedTool(["posted"], { name: "post_note", effect: "external-write" });
    const second = createTestHarness([runs], { stores });
    second.clock.set(first.clock.now() + 10 * 60_000);
    expect(await second.seam.sweep()).toMatchObject({ settled: 1 });
    const interrupted = await stores.approvals.get({ tenantId: "t1", id });
    expect(interrupted).toMatchObject({
      status: "interrupted",
      interruption: { reason: "lost", by: "p1", holder: "host-a:1", startedAt: first.clock.now() },
    });
    const events = await stores.audit.list({ tenantId: "t1" });
    expect(events.find((event) => event.kind === "tool-call-interrupt")).toMatchObject({
      approvalId: id,
      outcome: "interrupted",
    });

    // The caller sends its key again: told the outcome is unknown, with the approval; no second approval.
    const again = await second.seam.call(second.context({ toolCallId: "call-1" }), "post_note", {
      text: "hi",
    });
    expect(again).toMatchObject({
      ok: false,
      error: {
        code: "idempotency_conflict",
        details: { status: "unknown", approvalId: id, holder: "host-a:1" },
      },
    });
    expect(await stores.approvals.list({ tenantId: "t1" })).toHaveLength(1);
    expect(await second.seam.approve({ tenantId: "t1", approvalId: id, by: "carol" })).toMatchObject({
      ok: false,
      reason: "already_decided",
    });
    expect(await second.seam.resume(asker, id)).toMatchObject({ error: { details: { status: "unknown" } } });
    expect(runs.calls).toHaveLength(0);

    // An operator retries: audited, run once as the requester, finished.
    const retried = await second.seam.retry({ tenantId: "t1", approvalId: id, by: "olivia" }, asker);
    expect(retried).toMatchObject({ decision: { ok: true }, envelope: { ok: true, content: "posted" } });
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({
      status: "executed",
      retriedBy: "olivia",
      interruption: { reason: "lost" },
    });
    expect(await second.seam.retry({ tenantId: "t1", approvalId: id, by: "olivia" }, asker)).toMatchObject({
      decision: { ok: false, reason: "not_interrupted" },
      envelope: undefined,
    });
    expect(runs.calls).toHaveLength(1);
    const kinds = (await stores.audit.list({ tenantId: "t1" })).map((event) => event.kind);
    expect(kinds).toContain("approval-retry");
  });

  it("is finished, not interrupted, when its result was stored before the approval heard of it", async () => {
    const tool = createScriptedTool(["posted"], { name: "post_note", effect: "external-write" });
    const { seam, context, stores, clock } = createTestHarness([tool]);
    const asker = context();
    const id = parkedId(await seam.call(asker, "post_note", {}));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    const record = await stores.approvals.get({ tenantId: "t1", id });
    // The run and its result, as a process that died before finishing the approval left them.
    await stores.idempotency.claim({
      tenantId: "t1",
      key: record?.idempotencyKey as string,
      fingerprint: record?.fingerprint as string,
      toolName: "post_note",
      claimId: "c",
      principalId: "p1",
      holder: "gone:1",
      reclaimable: false,
      now: clock.now(),
      leaseMs: 1_000,
      retentionMs: 60_000,
    });
    const result = { ok: true as const, content: "posted before the crash" };
    await stores.idempotency.complete({
      tenantId: "t1",
      key: record?.idempotencyKey as string,
      claimId: "c",
      envelope: result,
      now: clock.now(),
      retentionMs: 60_000,
    });
    expect(await seam.sweep()).toMatchObject({ settled: 1 });
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({ status: "executed", result });
    expect(tool.calls).toHaveLength(0);
  });

  it("that never started is left approved for its resume until its approval expires", async () => {
    const tool = createScriptedTool(["posted"], { name: "post_note", effect: "external-write" });
    const { seam, context, stores, clock } = createTestHarness([tool], { approvalTtlMs: 60_000 });
    const id = parkedId(await seam.call(context(), "post_note", {}));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    expect(await seam.sweep()).toMatchObject({ settled: 0 });
    clock.advance(60_000);
    expect(await seam.sweep()).toMatchObject({ settled: 1 });
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({
      status: "refused",
      result: { ok: false, error: { code: "approval_denied" } },
    });
    expect(tool.calls).toHaveLength(0);
  });
});

describe("seam: stop", () => {
  it("waits for calls that end within the drain", async () => {
    const { opened, release } = gate();
    const tool = createScriptedTool(
      [
        async () => {
          await opened;
          return "done";
        },
      ],
      { name: "post_note", effect: "external-write", approval: "policy", overrideReason: "test" },
    );
    const { seam, context, stores } = createTestHarness([tool], { approvalPolicy: allowAll });
    const running = seam.call(context({ toolCallId: "x" }), "post_note", {});
    await new Promise((resolve) => setTimeout(resolve, 5));
    setTimeout(release, 20);
    expect(await seam.stop(2_000)).toEqual({ drained: true, interrupted: 0 });
    expect(await running).toEqual({ ok: true, content: "done" });
    // Once the stop has begun, a call that changes data is refused, retryably, and nothing runs; a read runs.
    expect(await seam.call(context({ toolCallId: "y" }), "post_note", {})).toMatchObject({
      ok: false,
      error: { code: "internal", retryable: true, details: { shuttingDown: true } },
    });
    expect(tool.calls).toHaveLength(1);
    expect(await stores.idempotency.get({ tenantId: "t1", key: 'call:["r1","x"]' })).toMatchObject({
      status: "completed",
    });
  });

  it("records what still runs past the drain as interrupted, and writes nothing after", async () => {
    const { opened, release } = gate();
    const slow = async () => {
      await opened;
      return "done late";
    };
    const parked = createScriptedTool([slow], { name: "post_note", effect: "external-write" });
    const keyed = createScriptedTool([slow], {
      name: "send_note",
      effect: "external-write",
      approval: "policy",
      overrideReason: "test",
    });
    const unkeyed = createScriptedTool([slow], { name: "save_note", effect: "internal-write" });
    const reads = createScriptedTool([slow], { name: "read_note" });
    const { seam, context, stores } = createTestHarness([parked, keyed, unkeyed, reads], {
      approvalPolicy: allowAll,
      holder: "host-a:1",
    });
    const asker = context({ toolCallId: "parked" });
    const id = parkedId(await seam.call(asker, "post_note", {}));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    const calls = [
      seam.resume(asker, id),
      seam.call(context({ toolCallId: "keyed" }), "send_note", {}),
      seam.call(context(), "save_note", {}),
      seam.call(context(), "read_note", {}),
    ];
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Reads are cut off freely: only the three calls that change data are waited for and recorded.
    expect(await seam.stop(30)).toEqual({ drained: false, interrupted: 3 });
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({
      status: "interrupted",
      interruption: { reason: "shutdown", by: "p1", holder: "host-a:1" },
    });
    for (const key of ['call:["r1","parked"]', 'call:["r1","keyed"]']) {
      expect(await stores.idempotency.get({ tenantId: "t1", key }), key).toMatchObject({ status: "unknown" });
    }
    const interrupts = (await stores.audit.list({ tenantId: "t1" })).filter(
      (event) => event.kind === "tool-call-interrupt",
    );
    expect(interrupts.map((event) => event.tool).sort()).toEqual(["post_note", "save_note", "send_note"]);

    // The tools end after the stop: their callers hear, the stores are left as the stop left them.
    release();
    await Promise.all(calls);
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({ status: "interrupted" });
    expect(await stores.idempotency.get({ tenantId: "t1", key: 'call:["r1","keyed"]' })).toMatchObject({
      status: "unknown",
    });
  });
});

describe("seam: a caller that goes away decides nothing", () => {
  it("a write runs to its end when its caller aborts, and its real outcome is stored and replayed", async () => {
    const { opened, release } = gate();
    let finished = false;
    const tool = createScriptedTool(
      [
        async (_input, context) => {
          await opened;
          finished = !context.signal.aborted;
          return "written";
        },
      ],
      { name: "post_note", effect: "external-write", approval: "policy", overrideReason: "test" },
    );
    const { seam, context } = createTestHarness([tool], { approvalPolicy: allowAll });
    const controller = new AbortController();
    const call = seam.call(context({ toolCallId: "w", signal: controller.signal }), "post_note", {});
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("client hung up"));
    // A retry while it runs is told so, not given a stored timeout.
    expect(await seam.call(context({ toolCallId: "w" }), "post_note", {})).toMatchObject({
      error: { code: "in_progress" },
    });
    release();
    expect(await call).toEqual({ ok: true, content: "written" });
    expect(finished).toBe(true);
    expect(await seam.call(context({ toolCallId: "w" }), "post_note", {})).toEqual({
      ok: true,
      content: "written",
    });
    expect(tool.calls).toHaveLength(1);
  });

  it("a read is cut off when its caller aborts", async () => {
    const tool = createScriptedTool([() => new Promise(() => {})], { name: "read_note" });
    const { seam, context } = createTestHarness([tool]);
    const controller = new AbortController();
    const call = seam.call(context({ signal: controller.signal }), "read_note", {});
    setTimeout(() => controller.abort(), 5);
    expect(await call).toMatchObject({ ok: false, error: { code: "timeout", details: { aborted: true } } });
  });
});

describe("seam: duplicates and conflicts are settled before parking", () => {
  it("300 duplicates of a gated call park one approval, each told its id", async () => {
    const tool = createScriptedTool(["posted"], { name: "post_note", effect: "external-write" });
    const { seam, context, stores } = createTestHarness([tool]);
    const answers = await Promise.all(
      Array.from({ length: 300 }, () =>
        seam.call(context({ idempotencyKey: "k" }), "post_note", { text: "a" }),
      ),
    );
    const ids = new Set(answers.map(parkedId));
    expect(ids.size).toBe(1);
    expect(await stores.approvals.list({ tenantId: "t1" })).toHaveLength(1);
    const requests = (await stores.audit.list({ tenantId: "t1", limit: 1_000 })).filter(
      (event) => event.kind === "approval-request",
    );
    expect(requests).toHaveLength(1);
  });

  it("the same key with other arguments is refused before anything is parked", async () => {
    const tool = createScriptedTool(["posted"], { name: "post_note", effect: "external-write" });
    const { seam, context, stores } = createTestHarness([tool]);
    const id = parkedId(await seam.call(context({ idempotencyKey: "k" }), "post_note", { text: "a" }));
    expect(await seam.call(context({ idempotencyKey: "k" }), "post_note", { text: "b" })).toMatchObject({
      ok: false,
      error: { code: "idempotency_conflict", retryable: false },
    });
    expect((await stores.approvals.list({ tenantId: "t1" })).map((record) => record.id)).toEqual([id]);
  });

  it("a duplicate of a decided call hears the decision, or the result once it ran", async () => {
    const tool = createScriptedTool(["posted"], { name: "post_note", effect: "external-write" });
    const { seam, context } = createTestHarness([tool]);
    const send = () => seam.call(context({ idempotencyKey: "k" }), "post_note", {});
    const id = parkedId(await send());
    expect(approvalIdOf(await send())).toBe(id);
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    expect(await send()).toMatchObject({ error: { code: "in_progress", details: { approvalId: id } } });
    await seam.resume(context({ idempotencyKey: "k" }), id);
    expect(await send()).toEqual({ ok: true, content: "posted" });
    const denied = parkedId(await seam.call(context({ idempotencyKey: "k2" }), "post_note", {}));
    await seam.deny({ tenantId: "t1", approvalId: denied, by: "carol" });
    expect(await seam.call(context({ idempotencyKey: "k2" }), "post_note", {})).toMatchObject({
      error: { code: "approval_denied", details: { approvalId: denied } },
    });
    expect(tool.calls).toHaveLength(1);
  });
});

describe("seam: an approval is not burned by a process that cannot run it", () => {
  it("leaves the approval pending where its tool is not served, and says so", async () => {
    const stores = createMemoryStores();
    const tool = createScriptedTool(["posted"], { name: "post_note", effect: "external-write" });
    const served = createTestHarness([tool], { stores });
    const id = parkedId(await served.seam.call(served.context(), "post_note", {}));
    const elsewhere = createTestHarness([], { stores });
    const refused = await elsewhere.seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    expect(refused).toMatchObject({
      ok: false,
      reason: "not_served",
      message: expect.stringContaining("post_note, which this process does not serve"),
    });
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({ status: "pending" });
    // Where it is served, it is approved and runs.
    expect(await served.seam.approve({ tenantId: "t1", approvalId: id, by: "carol" })).toMatchObject({
      ok: true,
    });
    // A denial needs nothing to run, so it can be taken anywhere.
    const other = parkedId(await served.seam.call(served.context(), "post_note", { n: 2 }));
    expect(await elsewhere.seam.deny({ tenantId: "t1", approvalId: other, by: "carol" })).toMatchObject({
      ok: true,
    });
  });
});

describe("seam: races the review found", () => {
  it("a call that changes data, waiting on its policy when a stop begins, is refused and never runs", async () => {
    const tool = createScriptedTool(["saved"], {
      name: "save_note",
      effect: "internal-write",
      approval: "policy",
      overrideReason: "the host's policy decides",
    });
    const slowPolicy = {
      decide: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { decision: "allow" as const, reason: "ok" };
      },
    };
    const { seam, context } = createTestHarness([tool], { approvalPolicy: slowPolicy });
    const call = seam.call(context(), "save_note", {});
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(await seam.stop(1_000)).toEqual({ drained: true, interrupted: 0 });
    expect(await call).toMatchObject({
      ok: false,
      error: { retryable: true, details: { shuttingDown: true } },
    });
    expect(tool.calls).toHaveLength(0);
  });

  it("a sweep that refuses an expired approval while its resume waits wins: the tool never runs", async () => {
    const { opened, release } = gate();
    let armed = false;
    let checking: () => void = () => {};
    const inCheck = new Promise<void>((resolve) => {
      checking = resolve;
    });
    const tool = createScriptedTool(["posted"], {
      name: "post_note",
      effect: "external-write",
      requires: [
        {
          name: "a slow check",
          check: async () => {
            if (!armed) return true;
            checking();
            await opened;
            return true;
          },
        },
      ],
    });
    const first = createTestHarness([tool], { approvalTtlMs: 60_000 });
    const asker = first.context({ toolCallId: "c" });
    const id = parkedId(await first.seam.call(asker, "post_note", {}));
    await first.seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    first.clock.advance(59_000);
    armed = true;
    const resumed = first.seam.resume(asker, id);
    await inCheck;
    const other = createTestHarness([tool], { stores: first.stores });
    other.clock.set(first.clock.now() + 2_000);
    expect(await other.seam.sweep()).toMatchObject({ settled: 1 });
    release();
    expect(await resumed).toMatchObject({ ok: false, error: { code: "approval_denied" } });
    expect(tool.calls).toHaveLength(0);
    // The key's stored outcome agrees with the approval's.
    expect(await first.seam.call(asker, "post_note", {})).toMatchObject({
      error: { code: "approval_denied" },
    });
  });

  it("an approval a stop left approved and never started runs on an operator's retry", async () => {
    const stores = createMemoryStores();
    const tool = createScriptedTool(["posted"], { name: "post_note", effect: "external-write" });
    const stopping = createTestHarness([tool], { stores });
    const asker = stopping.context({ toolCallId: "c" });
    const id = parkedId(await stopping.seam.call(asker, "post_note", {}));
    await stopping.seam.stop(10);
    expect(await stopping.seam.approve({ tenantId: "t1", approvalId: id, by: "carol" })).toMatchObject({
      ok: true,
    });
    expect(await stopping.seam.resume(asker, id)).toMatchObject({
      error: { details: { shuttingDown: true } },
    });
    const next = createTestHarness([tool], { stores });
    expect(await next.seam.call(asker, "post_note", {})).toMatchObject({
      error: { code: "in_progress", message: expect.stringContaining("has not started yet") },
    });
    const retried = await next.seam.retry({ tenantId: "t1", approvalId: id, by: "olivia" }, asker);
    expect(retried).toMatchObject({ decision: { ok: true }, envelope: { ok: true, content: "posted" } });
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({ status: "executed" });
    expect(tool.calls).toHaveLength(1);
  });

  it("an operator's retry long after the approval's lifetime runs: a person has just decided", async () => {
    const stores = createMemoryStores();
    const hangs = createScriptedTool([() => new Promise(() => {})], {
      name: "post_note",
      effect: "external-write",
    });
    const first = createTestHarness([hangs], { stores, approvalTtlMs: 60 * 60_000 });
    const asker = first.context({ toolCallId: "c" });
    const id = parkedId(await first.seam.call(asker, "post_note", {}));
    first.clock.advance(50 * 60_000);
    await first.seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    void first.seam.resume(asker, id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const runs = createScriptedTool(["posted"], { name: "post_note", effect: "external-write" });
    const next = createTestHarness([runs], { stores });
    next.clock.set(first.clock.now() + 20 * 60_000);
    await next.seam.sweep();
    const retried = await next.seam.retry({ tenantId: "t1", approvalId: id, by: "olivia" }, asker);
    expect(retried).toMatchObject({ decision: { ok: true }, envelope: { ok: true, content: "posted" } });
    expect(runs.calls).toHaveLength(1);
  });

  it("a store that fails under a decision says so, retryably, and decides nothing", async () => {
    const tool = createScriptedTool(["posted"], { name: "post_note", effect: "external-write" });
    const { seam, context, stores } = createTestHarness([tool]);
    const id = parkedId(await seam.call(context(), "post_note", {}));
    const decide = stores.approvals.decide;
    stores.approvals.decide = () => Promise.reject(new Error("database or disk is full"));
    expect(await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" })).toMatchObject({
      ok: false,
      reason: "store_unavailable",
      message: expect.stringContaining("disk is full"),
    });
    stores.approvals.decide = decide;
    const get = stores.approvals.get;
    stores.approvals.get = () => Promise.reject(new Error("database or disk is full"));
    expect(await seam.retry({ tenantId: "t1", approvalId: id, by: "olivia" }, context())).toMatchObject({
      decision: { ok: false, reason: "store_unavailable" },
      envelope: undefined,
    });
    stores.approvals.get = get;
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({ status: "pending" });
    expect(tool.calls).toHaveLength(0);
  });

  it("after an operator's retry, the lost holder's late result does not overwrite the approval", async () => {
    const stores = createMemoryStores();
    const first = gate();
    const a = createTestHarness(
      [
        createScriptedTool(
          [
            async () => {
              await first.opened;
              return "A's run";
            },
          ],
          { name: "post_note", effect: "external-write" },
        ),
      ],
      { stores, holder: "a:1" },
    );
    const asker = a.context({ toolCallId: "c" });
    const id = parkedId(await a.seam.call(asker, "post_note", {}));
    await a.seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    const runA = a.seam.resume(asker, id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // A is alive, but no heartbeat of it reached the store for a minute.
    const second = gate();
    const b = createTestHarness(
      [
        createScriptedTool(
          [
            async () => {
              await second.opened;
              return "B's run";
            },
          ],
          { name: "post_note", effect: "external-write" },
        ),
      ],
      { stores, holder: "b:1" },
    );
    b.clock.set(a.clock.now() + 60_000);
    await b.seam.sweep();
    const retried = b.seam.retry({ tenantId: "t1", approvalId: id, by: "olivia" }, asker);
    await new Promise((resolve) => setTimeout(resolve, 5));
    first.release();
    expect(await runA).toEqual({ ok: true, content: "A's run" });
    second.release();
    expect((await retried).envelope).toEqual({ ok: true, content: "B's run" });
    const approval = await stores.approvals.get({ tenantId: "t1", id });
    const claim = await stores.idempotency.get({ tenantId: "t1", key: 'call:["r1","c"]' });
    expect(approval?.result).toEqual(claim?.envelope);
    expect(approval?.result).toEqual({ ok: true, content: "B's run" });
  });

  it("a result the store took only on a later offer finishes its approval", async () => {
    const tool = createScriptedTool(["posted"], { name: "post_note", effect: "external-write" });
    const { seam, context, stores } = createTestHarness([tool], { holder: "live:1" });
    const asker = context({ toolCallId: "c" });
    const id = parkedId(await seam.call(asker, "post_note", {}));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    const complete = stores.idempotency.complete;
    stores.idempotency.complete = () => Promise.reject(new Error("database or disk is full"));
    expect(await seam.resume(asker, id)).toEqual({ ok: true, content: "posted" });
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({ status: "approved" });
    stores.idempotency.complete = complete;
    await expect
      .poll(async () => (await stores.approvals.get({ tenantId: "t1", id }))?.status, { timeout: 3_000 })
      .toBe("executed");
    expect(await stores.idempotency.get({ tenantId: "t1", key: 'call:["r1","c"]' })).toMatchObject({
      status: "completed",
    });
    expect(tool.calls).toHaveLength(1);
  });
});
