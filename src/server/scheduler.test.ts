/**
 * @module The scheduler through a real seam (memory stores, a SQLite auth store, a clock the test moves): each
 * occurrence runs as the schedule's principal under ids that name it, an occurrence claimed again after its
 * holder died is not run twice, a call that needs approval parks, a revoked principal is refused and paused,
 * a prompt reaches the event hub.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AuthStore } from "../ports/auth-store.js";
import type { ScheduleStore } from "../ports/schedule-store.js";
import { type AnyTool, ToolRegistry } from "../registry/registry.js";
import { Seam } from "../seam/seam.js";
import { createMemoryStores } from "../stores/memory/index.js";
import { createMemoryScheduleStore } from "../stores/memory/schedules.js";
import { openSqliteAuthStore } from "../stores/sqlite/auth.js";
import { createScriptedTool } from "../test/scripted-tool.js";
import { EventHub, type ServerEvent } from "./event-hub.js";
import { occurrenceCallId, type SchedulerOptions, scheduleRunId, startScheduler } from "./scheduler.js";

const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const ADA = { tenantId: "acme", principalId: "user:ada" };
const allowAll = { decide: () => ({ decision: "allow" as const, reason: "test" }) };

const opened: { auth: AuthStore; directory: string }[] = [];
afterEach(async () => {
  for (const { auth, directory } of opened.splice(0)) {
    await auth.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

async function setup(extraTools: readonly AnyTool[] = []) {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-scheduler-"));
  const auth = openSqliteAuthStore(join(directory, "auth.db"));
  opened.push({ auth, directory });
  const { record } = await auth.createKey({ ...ADA, label: "ada" });
  // Approved by policy: idempotency without parking. The second always parks, as an external write does.
  const ticket = createScriptedTool([{ content: "created" }], {
    name: "create_ticket",
    effect: "external-write",
    approval: "policy",
    overrideReason: "tests a scheduled side effect without parking",
  });
  const invoice = createScriptedTool([{ content: "sent" }], {
    name: "send_invoice",
    effect: "external-write",
  });
  const stores = createMemoryStores();
  const seam = new Seam({
    registry: new ToolRegistry([ticket, invoice, ...extraTools]).view(),
    stores,
    approvalPolicy: allowAll,
  });
  const schedules = createMemoryScheduleStore({ minIntervalMs: 1_000 });
  const hub = new EventHub();
  const clock = { now: T0 };
  const scheduler = (overrides: Partial<SchedulerOptions> = {}) =>
    startScheduler({
      schedules,
      seam,
      auth,
      audit: stores.audit,
      publish: (event) => hub.publish(event),
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      holder: "instance-1",
      intervalMs: 3_600_000,
      leaseMs: 60_000,
      clock: () => clock.now,
      ...overrides,
    });
  return { auth, keyId: record.id, ticket, invoice, stores, seam, schedules, hub, clock, scheduler };
}

const everyTwoSeconds = (tool: string) => ({
  action: { kind: "tool" as const, tool, input: { title: "Daily report" } },
  timing: { kind: "cron" as const, expression: "*/2 * * * * *", timeZone: "UTC" },
  now: T0,
});

describe("scheduler", () => {
  it("runs each occurrence through the seam as the schedule's maker, audited under ids naming it, until cancelled", async () => {
    const { ticket, stores, schedules, clock, scheduler } = await setup();
    const schedule = await schedules.create(ADA, everyTwoSeconds("create_ticket"));
    const running = scheduler();
    clock.now = T0 + 1_000;
    expect(await running.tick()).toBe(0);
    clock.now = T0 + 2_000;
    expect(await running.tick()).toBe(1);
    clock.now = T0 + 4_000;
    expect(await running.tick()).toBe(1);
    expect(
      ticket.calls.map((call) => [call.context.principalId, call.context.runId, call.context.toolCallId]),
    ).toEqual([
      ["user:ada", scheduleRunId(schedule.id), occurrenceCallId(schedule.id, T0 + 2_000)],
      ["user:ada", scheduleRunId(schedule.id), occurrenceCallId(schedule.id, T0 + 4_000)],
    ]);
    const audit = await stores.audit.list({ tenantId: "acme" });
    expect(
      audit
        .filter((event) => event.tool === "create_ticket")
        .map((event) => [event.actor, event.runId, event.outcome]),
    ).toEqual([
      ["user:ada", `schedule:${schedule.id}`, "ok"],
      ["user:ada", `schedule:${schedule.id}`, "ok"],
    ]);
    expect(await schedules.get(ADA, schedule.id)).toMatchObject({
      fireCount: 2,
      lastOutcome: "ok",
      status: "active",
    });

    await schedules.cancel(ADA, schedule.id);
    clock.now = T0 + 10_000;
    expect(await running.tick()).toBe(0);
    expect(ticket.calls).toHaveLength(2);
    await running.stop();
  });

  it("runs an occurrence once when its holder died after the call and another instance claims it again", async () => {
    const { ticket, schedules, clock, scheduler } = await setup();
    const schedule = await schedules.create(ADA, everyTwoSeconds("create_ticket"));
    // The first instance runs the call, then dies before it records the occurrence.
    const dying: ScheduleStore = {
      ...schedules,
      complete: () => Promise.reject(new Error("the process died")),
    };
    const first = scheduler({ schedules: dying, holder: "instance-1" });
    clock.now = T0 + 2_000;
    await first.tick();
    await first.stop();
    expect(ticket.calls).toHaveLength(1);

    const second = scheduler({ holder: "instance-2" });
    clock.now = T0 + 2_000 + 60_000;
    // The lapsed occurrence first: replayed from the idempotency record, not run again.
    expect(await second.tick()).toBe(1);
    expect(ticket.calls).toHaveLength(1);
    expect(await schedules.get(ADA, schedule.id)).toMatchObject({ fireCount: 1, lastOutcome: "ok" });
    // Then the next one, which runs.
    expect(await second.tick()).toBe(1);
    expect(ticket.calls.map((call) => call.context.toolCallId)).toEqual([
      occurrenceCallId(schedule.id, T0 + 2_000),
      occurrenceCallId(schedule.id, T0 + 4_000),
    ]);
    expect(await schedules.get(ADA, schedule.id)).toMatchObject({ fireCount: 2 });
    await second.stop();
  });

  it("parks a scheduled side effect that needs approval, requested by the schedule's maker", async () => {
    const { invoice, stores, schedules, clock, scheduler } = await setup();
    const schedule = await schedules.create(ADA, {
      action: { kind: "tool", tool: "send_invoice", input: {} },
      timing: { kind: "once", at: T0 + 5_000 },
      now: T0,
    });
    const running = scheduler();
    clock.now = T0 + 5_000;
    await running.tick();
    expect(invoice.calls).toHaveLength(0);
    expect(await schedules.get(ADA, schedule.id)).toMatchObject({
      status: "done",
      lastOutcome: "approval_required",
    });
    const approvals = await stores.approvals.list({ tenantId: "acme" });
    expect(approvals).toMatchObject([
      {
        toolName: "send_invoice",
        requestedBy: "user:ada",
        runId: scheduleRunId(schedule.id),
        status: "pending",
      },
    ]);
    await running.stop();
  });

  it("refuses the run of a principal with no live key, records it, and pauses the schedule", async () => {
    const { auth, keyId, ticket, stores, schedules, clock, scheduler } = await setup();
    const schedule = await schedules.create(ADA, everyTwoSeconds("create_ticket"));
    await auth.revokeKey(keyId);
    const running = scheduler();
    clock.now = T0 + 2_000;
    expect(await running.tick()).toBe(1);
    expect(ticket.calls).toHaveLength(0);
    expect(await stores.audit.list({ tenantId: "acme" })).toMatchObject([
      {
        actor: "user:ada",
        tool: "create_ticket",
        runId: scheduleRunId(schedule.id),
        outcome: "not_authorized",
      },
    ]);
    expect(await schedules.get(ADA, schedule.id)).toMatchObject({
      status: "paused",
      lastOutcome: "paused: user:ada has no live key",
    });
    clock.now = T0 + 60_000;
    expect(await running.tick()).toBe(0);
    await running.stop();
  });

  it("hands a prompt to the host as an event, and none for a principal with no live key, auditing each", async () => {
    const { auth, keyId, hub, stores, schedules, clock, scheduler } = await setup();
    const heard: ServerEvent[] = [];
    hub.subscribe((event) => heard.push(event));
    const schedule = await schedules.create(ADA, {
      action: { kind: "prompt", prompt: "Summarise today's tickets" },
      timing: { kind: "cron", expression: "*/2 * * * * *", timeZone: "UTC" },
      now: T0,
    });
    const runId = scheduleRunId(schedule.id);
    const running = scheduler();
    clock.now = T0 + 2_000;
    await running.tick();
    expect(heard).toEqual([
      {
        type: "schedule.prompt",
        tenantId: "acme",
        principalId: "user:ada",
        scheduleId: schedule.id,
        runId: scheduleRunId(schedule.id),
        prompt: "Summarise today's tickets",
        fireAt: T0 + 2_000,
        at: T0 + 2_000,
      },
    ]);
    await auth.revokeKey(keyId);
    clock.now = T0 + 4_000;
    await running.tick();
    expect(heard).toHaveLength(1);
    expect(await schedules.get(ADA, schedule.id)).toMatchObject({ status: "paused", fireCount: 2 });
    // Each occurrence audited under the maker, with its run and tool-call ids: handed over, then refused.
    const audit = await stores.audit.list({ tenantId: "acme" });
    expect(
      audit.map((event) => [event.kind, event.actor, event.runId, event.toolCallId, event.outcome]),
    ).toEqual([
      ["schedule-prompt", "user:ada", runId, occurrenceCallId(schedule.id, T0 + 4_000), "not_authorized"],
      ["schedule-prompt", "user:ada", runId, occurrenceCallId(schedule.id, T0 + 2_000), "ok"],
    ]);
    expect(audit[0]?.message).toContain("user:ada has no live key");
    await running.stop();
  });

  it("hands no prompt to the host for a disabled assistant, recording the occurrence as refused", async () => {
    const { auth, hub, stores, schedules, clock, scheduler } = await setup();
    const carl = { tenantId: "acme", principalId: "user:carl" };
    await auth.createKey({ ...carl, mode: "disabled" });
    const heard: ServerEvent[] = [];
    hub.subscribe((event) => heard.push(event));
    const schedule = await schedules.create(carl, {
      action: { kind: "prompt", prompt: "Summarise today's tickets" },
      timing: { kind: "once", at: T0 + 2_000 },
      now: T0,
    });
    const running = scheduler();
    clock.now = T0 + 2_000;
    expect(await running.tick()).toBe(1);
    expect(heard).toEqual([]);
    expect(await schedules.get(carl, schedule.id)).toMatchObject({
      status: "done",
      lastOutcome: "not_authorized",
    });
    expect(await stores.audit.list({ tenantId: "acme" })).toMatchObject([
      { kind: "schedule-prompt", actor: "user:carl", outcome: "not_authorized" },
    ]);
    await running.stop();
  });
  it("refuses when it fires a schedule of a schedule tool or of a tool that calls others, and pauses it", async () => {
    const lister = createScriptedTool([{ content: "none" }], { name: "schedule_list" });
    const executor = createScriptedTool([{ content: "ran" }], {
      name: "execute_tool",
      delegatesTo: (input) => ({ name: String(input.name), input: {} }),
    });
    const { schedules, clock, scheduler } = await setup([lister, executor]);
    // Written past the tools' check, as a store shared with an older version might hold them.
    const listing = await schedules.create(ADA, everyTwoSeconds("schedule_list"));
    const executing = await schedules.create(ADA, {
      ...everyTwoSeconds("execute_tool"),
      action: { kind: "tool", tool: "execute_tool", input: { name: "schedule_create" } },
    });
    const running = scheduler();
    clock.now = T0 + 2_000;
    expect(await running.tick()).toBe(2);
    expect([lister.calls, executor.calls]).toEqual([[], []]);
    expect(await schedules.get(ADA, listing.id)).toMatchObject({
      status: "paused",
      lastOutcome: "paused: schedule_list cannot itself be scheduled",
    });
    expect(await schedules.get(ADA, executing.id)).toMatchObject({
      status: "paused",
      lastOutcome: expect.stringMatching(/^paused: execute_tool calls other tools/),
    });
    await running.stop();
  });

  it("runs others while one scheduled call is slow, and stop aborts the slow one instead of waiting for it", async () => {
    let slowSignal: AbortSignal | undefined;
    // A read that runs until its caller goes.
    const slow = createScriptedTool(
      [
        (_input, context) =>
          new Promise((resolve) => {
            slowSignal = context.signal;
            context.signal.addEventListener("abort", () => resolve({ content: "stopped" }));
          }),
      ],
      { name: "slow_report", limits: { timeoutMs: 3_600_000, outputBytes: 65_536 } },
    );
    const { ticket, schedules, clock, scheduler } = await setup([slow]);
    const slowOne = await schedules.create(ADA, {
      action: { kind: "tool", tool: "slow_report", input: {} },
      timing: { kind: "once", at: T0 + 2_000 },
      now: T0,
    });
    await schedules.create(ADA, everyTwoSeconds("create_ticket"));
    const running = scheduler({ concurrency: 2 });
    clock.now = T0 + 2_000;
    const first = running.tick();
    await vi.waitFor(() => expect(ticket.calls).toHaveLength(1));
    expect(slowSignal?.aborted).toBe(false);
    // The slow call holds one slot: the next tick claims only one occurrence, the ticket's, and runs it.
    clock.now = T0 + 4_000;
    expect(await running.tick()).toBe(1);
    expect(ticket.calls).toHaveLength(2);
    expect(await schedules.get(ADA, slowOne.id)).toMatchObject({ fireCount: 0 });
    await running.stop();
    expect(slowSignal?.aborted).toBe(true);
    expect(await first).toBe(2);
    expect(await schedules.get(ADA, slowOne.id)).toMatchObject({ fireCount: 1, status: "done" });
  });
  it("runs under the key that made the schedule, not a newer one of the same person, and pauses once it is revoked", async () => {
    const { auth, ticket, stores, schedules, clock, scheduler } = await setup();
    // Ada made the schedule with a gated key; she has a newer, active one since.
    const gated = await auth.createKey({ ...ADA, label: "gated", mode: "gated" });
    const schedule = await schedules.create(
      { ...ADA, keyId: gated.record.id },
      everyTwoSeconds("create_ticket"),
    );
    expect(schedule.keyId).toBe(gated.record.id);
    await auth.createKey({ ...ADA, label: "newer" });
    const running = scheduler();
    clock.now = T0 + 2_000;
    expect(await running.tick()).toBe(1);
    // Gated: the side effect waits for a human, as it would for a call made with that key now.
    expect(ticket.calls).toHaveLength(0);
    expect(await schedules.get(ADA, schedule.id)).toMatchObject({ lastOutcome: "approval_required" });
    expect(await stores.approvals.list({ tenantId: "acme" })).toHaveLength(1);

    await auth.revokeKey(gated.record.id);
    clock.now = T0 + 4_000;
    expect(await running.tick()).toBe(1);
    expect(ticket.calls).toHaveLength(0);
    expect(await schedules.get(ADA, schedule.id)).toMatchObject({
      status: "paused",
      lastOutcome: `paused: the key ${gated.record.id} that made it is revoked or expired`,
    });
    await running.stop();
  });
});
