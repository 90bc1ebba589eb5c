/**
 * @module The one conformance suite every ScheduleStore adapter runs (memory, SQLite, PostgreSQL): schedules
 * kept per tenant and principal, refused when their timing or action is bad or past the floor or the cap, each
 * due occurrence claimed once (also by two connections at once) and advanced, a lapsed claim taken again with
 * the same occurrence, cancel, pause and a one-shot's end, and a reopen.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolFailure } from "../../src/errors/tool-failure.js";
import type {
  NewSchedule,
  ScheduleOwner,
  ScheduleStore,
  ScheduleStoreOptions,
} from "../../src/ports/schedule-store.js";

export interface ScheduleStoreFixture {
  store: ScheduleStore;
  /** Drops the store and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<ScheduleStore>;
  /** A second connection to the same storage, as another instance would have; only shared adapters provide it. */
  another?: () => Promise<ScheduleStore>;
  cleanup(): Promise<void>;
}

const ALICE: ScheduleOwner = { tenantId: "tenant-a", principalId: "user:alice" };
const BOB: ScheduleOwner = { tenantId: "tenant-a", principalId: "user:bob" };
const ALICE_ELSEWHERE: ScheduleOwner = { tenantId: "tenant-b", principalId: "user:alice" };
/** 2026-03-02T09:00:00Z, a Monday. */
const NOW = Date.UTC(2026, 2, 2, 9, 0, 0);
const MINUTE = 60_000;

const call = { kind: "tool", tool: "calculate", input: { expression: "1+1" } } as const;
const once = (at: number): NewSchedule => ({ action: call, timing: { kind: "once", at }, now: NOW });
const everyMinute: NewSchedule = {
  action: call,
  timing: { kind: "cron", expression: "* * * * *", timeZone: "UTC" },
  now: NOW,
};

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!ToolFailure.isInstance(error)) throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return { code: error.envelopeCode, message: error.message };
}

/**
 * Registers the suite for one adapter; `factory` gives a fresh, empty store for every test with the options
 * given (the cap and the floor). A durable adapter's fixture has `reopen`.
 */
export function runScheduleStoreConformance(
  name: string,
  factory: (options?: ScheduleStoreOptions) => Promise<ScheduleStoreFixture>,
): void {
  describe(`${name} schedule store conformance`, () => {
    let fixtures: ScheduleStoreFixture[] = [];
    let store: ScheduleStore;
    const open = async (options?: ScheduleStoreOptions) => {
      const fixture = await factory(options);
      fixtures.push(fixture);
      return fixture;
    };
    beforeEach(async () => {
      store = (await open()).store;
    });
    afterEach(async () => {
      for (const fixture of fixtures) await fixture.cleanup();
      fixtures = [];
    });

    it("keeps a schedule active with its first occurrence, for its owner to get and list", async () => {
      const cron = await store.create(ALICE, {
        action: { kind: "prompt", prompt: "Summarise my unread mail" },
        timing: { kind: "cron", expression: "0 9 * * 1-5", timeZone: "Europe/Paris" },
        now: NOW,
      });
      // 09:00 in Paris is 08:00 UTC in March: the next weekday's.
      expect(cron).toMatchObject({
        id: expect.stringMatching(/^sch_[0-9a-f]{16}$/),
        tenantId: "tenant-a",
        principalId: "user:alice",
        status: "active",
        nextFireAt: Date.UTC(2026, 2, 3, 8, 0, 0),
        fireCount: 0,
        createdAt: NOW,
      });
      const later = await store.create(ALICE, { ...once(NOW + MINUTE), now: NOW + 1 });
      expect(later).toMatchObject({
        action: call,
        timing: { kind: "once", at: NOW + MINUTE },
        nextFireAt: NOW + MINUTE,
      });
      expect(await store.get(ALICE, cron.id)).toEqual(cron);
      expect(cron.keyId).toBeUndefined();
      // The key that made it is kept, for the scheduler to run under.
      const keyed = await store.create(
        { ...ALICE, keyId: "key_alice_1" },
        { ...once(NOW + MINUTE), now: NOW + 2 },
      );
      expect(keyed.keyId).toBe("key_alice_1");
      expect(await store.get(ALICE, keyed.id)).toEqual(keyed);
      await store.cancel(ALICE, keyed.id);
      expect((await store.list(ALICE, { status: "active" })).map((schedule) => schedule.id)).toEqual([
        later.id,
        cron.id,
      ]);
      expect((await store.list(ALICE, { status: "done" })).length).toBe(0);
    });

    it("keeps one principal's schedules from a colleague and from another tenant", async () => {
      const mine = await store.create(ALICE, once(NOW + MINUTE));
      const bobs = await store.create(BOB, once(NOW + MINUTE));
      for (const other of [BOB, ALICE_ELSEWHERE]) {
        expect(await store.get(other, mine.id)).toBeUndefined();
        expect(await store.cancel(other, mine.id)).toBeUndefined();
      }
      expect((await store.list(BOB)).map((schedule) => schedule.id)).toEqual([bobs.id]);
      expect(await store.list(ALICE_ELSEWHERE)).toEqual([]);
      expect(await store.get(ALICE, mine.id)).toMatchObject({ status: "active" });
      // An operator's view: the whole tenant, and only it.
      expect((await store.list({ tenantId: "tenant-a" })).length).toBe(2);
      expect(await store.get({ tenantId: "tenant-b" }, mine.id)).toBeUndefined();
    });

    it("refuses a bad timing or action with what to change, and keeps nothing", async () => {
      const cases: [NewSchedule, RegExp][] = [
        [once(NOW - 1), /not in the future/],
        [once(NOW + 400 * 24 * 60 * MINUTE), /days ahead/],
        [
          { ...everyMinute, timing: { kind: "cron", expression: "every day", timeZone: "UTC" } },
          /does not parse/,
        ],
        [
          { ...everyMinute, timing: { kind: "cron", expression: "0 0 30 2 *", timeZone: "UTC" } },
          /never fires/,
        ],
        [
          { ...everyMinute, timing: { kind: "cron", expression: "* * * * *", timeZone: "Mars/Olympus" } },
          /IANA/,
        ],
        [
          { ...everyMinute, timing: { kind: "cron", expression: "* * * * * *", timeZone: "UTC" } },
          /at most once every 60 s/,
        ],
        [
          { ...everyMinute, timing: { kind: "cron", expression: "0,1 * * * * *", timeZone: "UTC" } },
          /1 s apart/,
        ],
        [{ ...everyMinute, action: { kind: "prompt", prompt: "  " } }, /prompt is empty/],
        [{ ...everyMinute, action: { kind: "prompt", prompt: "hi\u0000there" } }, /control characters/],
        [{ ...everyMinute, action: { kind: "tool", tool: "Drop Table", input: {} } }, /snake_case/],
      ];
      for (const [schedule, message] of cases) {
        expect(await refusal(store.create(ALICE, schedule))).toMatchObject({
          code: "invalid_input",
          message: expect.stringMatching(message),
        });
      }
      expect(await store.list(ALICE)).toEqual([]);
    });

    it("holds each principal to the cap of live schedules; a cancelled one frees its place", async () => {
      const small = (await open({ maxSchedules: 2 })).store;
      const first = await small.create(ALICE, once(NOW + MINUTE));
      await small.create(ALICE, once(NOW + MINUTE));
      expect(await refusal(small.create(ALICE, once(NOW + MINUTE)))).toMatchObject({
        code: "precondition_failed",
        message: expect.stringContaining("schedule_cancel"),
      });
      // A colleague has a cap of their own.
      await small.create(BOB, once(NOW + MINUTE));
      await small.cancel(ALICE, first.id);
      await small.create(ALICE, once(NOW + MINUTE));
      expect((await small.list(ALICE, { status: "active" })).length).toBe(2);
    });

    it("claims a due occurrence once, advances a cron to its next, and records the outcome", async () => {
      const schedule = await store.create(ALICE, everyMinute);
      const due = NOW + MINUTE;
      expect(await store.claimDue({ now: due - 1, holder: "a", leaseMs: 30_000, limit: 10 })).toEqual([]);
      const [claimed, ...rest] = await store.claimDue({ now: due, holder: "a", leaseMs: 30_000, limit: 10 });
      expect(rest).toEqual([]);
      expect(claimed).toMatchObject({ fireAt: due, schedule: { id: schedule.id, nextFireAt: due + MINUTE } });
      expect(await store.claimDue({ now: due, holder: "b", leaseMs: 30_000, limit: 10 })).toEqual([]);
      expect(
        await store.complete({
          tenantId: ALICE.tenantId,
          id: schedule.id,
          fireAt: due,
          holder: "a",
          outcome: "ok",
          now: due + 5,
        }),
      ).toBe(true);
      expect(await store.get(ALICE, schedule.id)).toMatchObject({
        status: "active",
        fireCount: 1,
        lastFiredAt: due + 5,
        lastOutcome: "ok",
        nextFireAt: due + MINUTE,
      });
      // Completed once: a second report of the same occurrence changes nothing.
      expect(
        await store.complete({
          tenantId: ALICE.tenantId,
          id: schedule.id,
          fireAt: due,
          holder: "a",
          outcome: "ok",
          now: due + 6,
        }),
      ).toBe(false);
    });

    it("fires occurrences missed while no scheduler ran once, then goes on from now", async () => {
      const schedule = await store.create(ALICE, everyMinute);
      const late = NOW + 10 * MINUTE + 30_000;
      const claimed = await store.claimDue({ now: late, holder: "a", leaseMs: 30_000, limit: 10 });
      expect(claimed.map((occurrence) => occurrence.fireAt)).toEqual([NOW + MINUTE]);
      expect(claimed[0]?.schedule.nextFireAt).toBe(NOW + 11 * MINUTE);
      expect(await store.get(ALICE, schedule.id)).toMatchObject({ nextFireAt: NOW + 11 * MINUTE });
    });

    it("keeps the floor when advancing, whatever the expression", async () => {
      const floored = (await open({ minIntervalMs: 1_000 })).store;
      const schedule = await floored.create(ALICE, {
        ...everyMinute,
        timing: { kind: "cron", expression: "*/2 * * * * *", timeZone: "UTC" },
      });
      expect(schedule.nextFireAt).toBe(NOW + 2_000);
      const [claimed] = await floored.claimDue({ now: NOW + 2_000, holder: "a", leaseMs: 1_000, limit: 1 });
      expect(claimed?.schedule.nextFireAt).toBe(NOW + 4_000);
    });

    it("ends a one-shot as done once fired, and never claims it again", async () => {
      const schedule = await store.create(ALICE, once(NOW + MINUTE));
      const [claimed] = await store.claimDue({ now: NOW + MINUTE, holder: "a", leaseMs: 30_000, limit: 10 });
      expect(claimed?.fireAt).toBe(NOW + MINUTE);
      expect(claimed?.schedule.nextFireAt).toBeUndefined();
      await store.complete({
        tenantId: ALICE.tenantId,
        id: schedule.id,
        fireAt: NOW + MINUTE,
        holder: "a",
        outcome: "ok",
        now: NOW + MINUTE,
      });
      expect(await store.get(ALICE, schedule.id)).toMatchObject({ status: "done", fireCount: 1 });
      expect(
        await store.claimDue({ now: NOW + 60 * MINUTE, holder: "a", leaseMs: 30_000, limit: 10 }),
      ).toEqual([]);
      // Cancelling what is done changes nothing.
      expect(await store.cancel(ALICE, schedule.id)).toMatchObject({ status: "done" });
    });

    it("claims a lapsed claim's occurrence again, and only its new holder completes it", async () => {
      const schedule = await store.create(ALICE, once(NOW + MINUTE));
      await store.claimDue({ now: NOW + MINUTE, holder: "a", leaseMs: 30_000, limit: 10 });
      expect(
        await store.claimDue({ now: NOW + MINUTE + 29_999, holder: "b", leaseMs: 30_000, limit: 10 }),
      ).toEqual([]);
      const [again] = await store.claimDue({
        now: NOW + MINUTE + 30_000,
        holder: "b",
        leaseMs: 30_000,
        limit: 10,
      });
      expect(again?.fireAt).toBe(NOW + MINUTE);
      const report = {
        tenantId: ALICE.tenantId,
        id: schedule.id,
        fireAt: NOW + MINUTE,
        outcome: "ok",
        now: NOW + 2 * MINUTE,
      };
      expect(await store.complete({ ...report, holder: "a" })).toBe(false);
      expect(await store.complete({ ...report, holder: "b" })).toBe(true);
      expect(await store.get(ALICE, schedule.id)).toMatchObject({ status: "done", fireCount: 1 });
    });

    it("fires a cancelled schedule no more, and a paused one no more", async () => {
      const cancelled = await store.create(ALICE, everyMinute);
      const paused = await store.create(BOB, everyMinute);
      expect(await store.cancel(ALICE, cancelled.id)).toMatchObject({ status: "cancelled" });
      const claimed = await store.claimDue({ now: NOW + MINUTE, holder: "a", leaseMs: 30_000, limit: 10 });
      expect(claimed.map((occurrence) => occurrence.schedule.id)).toEqual([paused.id]);
      await store.complete({
        tenantId: BOB.tenantId,
        id: paused.id,
        fireAt: NOW + MINUTE,
        holder: "a",
        outcome: "paused: no live key",
        now: NOW + MINUTE,
        pause: true,
      });
      expect(await store.get(BOB, paused.id)).toMatchObject({
        status: "paused",
        lastOutcome: "paused: no live key",
      });
      expect(
        await store.claimDue({ now: NOW + 60 * MINUTE, holder: "a", leaseMs: 30_000, limit: 10 }),
      ).toEqual([]);
      expect((await store.cancel(BOB, paused.id))?.status).toBe("cancelled");
    });

    it("hands each due occurrence to one of two connections claiming at once", async (context) => {
      const fixture = fixtures[0] as ScheduleStoreFixture;
      // Only PostgreSQL can race here: a SQLite claim is one synchronous transaction, so two connections in
      // one process never interleave (across processes SQLite's write lock parts them); memory has no second.
      if (!fixture.another) return context.skip();
      const other = await fixture.another();
      const owners = Array.from({ length: 12 }, (_, index) => ({
        tenantId: "tenant-a",
        principalId: `user:${index}`,
      }));
      for (const owner of owners) await store.create(owner, once(NOW + MINUTE));
      const claims = await Promise.all(
        [store, other, store, other].map((claimer, index) =>
          claimer.claimDue({ now: NOW + MINUTE, holder: `h${index}`, leaseMs: 30_000, limit: 4 }),
        ),
      );
      const ids = claims.flat().map((occurrence) => occurrence.schedule.id);
      expect(new Set(ids).size).toBe(ids.length);
      const rest = await other.claimDue({ now: NOW + MINUTE, holder: "late", leaseMs: 30_000, limit: 20 });
      expect(ids.length + rest.length).toBe(12);
    });

    it("keeps schedules and claims across a reopen", async (context) => {
      const fixture = fixtures[0] as ScheduleStoreFixture;
      if (!fixture.reopen) return context.skip();
      const schedule = await store.create(ALICE, everyMinute);
      await store.claimDue({ now: NOW + MINUTE, holder: "a", leaseMs: 30_000, limit: 10 });
      const reopened = await fixture.reopen();
      expect(await reopened.get(ALICE, schedule.id)).toMatchObject({
        timing: everyMinute.timing,
        action: call,
        nextFireAt: NOW + 2 * MINUTE,
      });
      expect(
        await reopened.complete({
          tenantId: ALICE.tenantId,
          id: schedule.id,
          fireAt: NOW + MINUTE,
          holder: "a",
          outcome: "ok",
          now: NOW + MINUTE,
        }),
      ).toBe(true);
    });
  });
}
