/**
 * @module The one conformance suite every TodoStore adapter runs (memory, SQLite, PostgreSQL): a list per
 * run, principal and tenant; each write replaces the whole list and moves the revision on; a stale
 * expectedRevision and a list outside the bounds are refused and change nothing; old lists are purged.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolFailure } from "../../src/errors/tool-failure.js";
import type { TodoItem, TodoKey, TodoStore } from "../../src/ports/todo-store.js";

export interface TodoStoreFixture {
  store: TodoStore;
  /** Drops the store and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<TodoStore>;
  /** A second connection to the same storage, as another instance would have; only shared adapters provide it. */
  another?: () => Promise<TodoStore>;
  cleanup(): Promise<void>;
}

const RUN: TodoKey = { tenantId: "tenant-a", principalId: "user:alice", runId: "run-1" };
const DAY = 86_400_000;

const plan: TodoItem[] = [
  { id: "1", content: "Read the invoice", status: "completed" },
  { id: "2", content: "Check the totals", status: "in_progress" },
  { id: "3", content: "Write the summary", status: "pending" },
];

/** The refusal `promise` rejects with: its envelope code and message. */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!ToolFailure.isInstance(error)) throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return { code: error.envelopeCode, message: error.message };
}

/**
 * Registers the suite for one adapter; `factory` gives a fresh, empty store for every test. A durable
 * adapter's fixture has `reopen`, and the suite checks a list outlives it.
 */
export function runTodoStoreConformance(
  name: string,
  factory: () => Promise<TodoStoreFixture>,
  { durable }: { durable: boolean },
): void {
  describe(`${name} todo store conformance`, () => {
    let fixture: TodoStoreFixture;
    let store: TodoStore;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it("reads an empty list at revision 0 before any write", async () => {
      expect(await store.read(RUN)).toEqual({ items: [], revision: 0 });
    });

    it("replaces the whole list on each write and moves the revision on by one", async () => {
      expect(await store.write(RUN, { items: plan, now: 1 })).toEqual({ items: plan, revision: 1 });
      const updated: TodoItem[] = [
        { id: "2", content: "Check the totals", status: "completed" },
        { id: "4", content: "Send it", status: "in_progress" },
      ];
      expect(await store.write(RUN, { items: updated, now: 2 })).toEqual({ items: updated, revision: 2 });
      // Item 1 and 3 are gone: a write is the list, not a patch; the order is the writer's.
      expect(await store.read(RUN)).toEqual({ items: updated, revision: 2 });
      expect(await store.write(RUN, { items: [], now: 3 })).toEqual({ items: [], revision: 3 });
      expect(await store.read(RUN)).toEqual({ items: [], revision: 3 });
    });

    it("stores only an item's id, content and status, and hands out copies", async () => {
      const extra = { id: "a", content: "x", status: "pending", note: "not kept" } as TodoItem;
      const written = await store.write(RUN, { items: [extra], now: 1 });
      expect(written.items).toEqual([{ id: "a", content: "x", status: "pending" }]);
      written.items[0]!.content = "changed by the caller";
      (await store.read(RUN)).items.push({ id: "b", content: "y", status: "pending" });
      expect(await store.read(RUN)).toEqual({
        items: [{ id: "a", content: "x", status: "pending" }],
        revision: 1,
      });
    });

    it("keeps each run's, principal's and tenant's list apart", async () => {
      const others: TodoKey[] = [
        { ...RUN, runId: "run-2" },
        { ...RUN, principalId: "user:bob" },
        { ...RUN, tenantId: "tenant-b" },
        // Keys that would collide if the three parts were joined with a separator.
        { tenantId: "tenant-a", principalId: "user", runId: "alice:run-1" },
        { tenantId: "tenant-a:user", principalId: "alice", runId: "run-1" },
      ];
      await store.write(RUN, { items: plan, now: 1 });
      for (const key of others) expect(await store.read(key)).toEqual({ items: [], revision: 0 });
      const own: TodoItem[] = [{ id: "x", content: "Another run's step", status: "pending" }];
      await store.write(others[0]!, { items: own, now: 2 });
      await store.write(others[0]!, { items: own, now: 3 });
      expect(await store.read(others[0]!)).toEqual({ items: own, revision: 2 });
      expect(await store.read(RUN)).toEqual({ items: plan, revision: 1 });
      for (const key of others.slice(1)) expect(await store.read(key)).toEqual({ items: [], revision: 0 });
    });

    it("writes with the revision read, and refuses a write another one overtook without changing the list", async () => {
      expect((await store.write(RUN, { items: plan, expectedRevision: 0, now: 1 })).revision).toBe(1);
      const mine: TodoItem[] = [{ id: "1", content: "Mine", status: "pending" }];
      expect(await store.write(RUN, { items: mine, expectedRevision: 1, now: 2 })).toEqual({
        items: mine,
        revision: 2,
      });
      for (const stale of [0, 1, 3]) {
        const refused = await refusal(store.write(RUN, { items: plan, expectedRevision: stale, now: 3 }));
        expect(refused.code).toBe("precondition_failed");
        expect(refused.message).toContain(`revision ${stale}`);
        expect(refused.message).toContain("revision 2");
      }
      expect(await store.read(RUN)).toEqual({ items: mine, revision: 2 });
      // A list never written is at revision 0: expecting another refuses and creates nothing.
      const fresh = { ...RUN, runId: "run-fresh" };
      expect((await refusal(store.write(fresh, { items: plan, expectedRevision: 1, now: 4 }))).code).toBe(
        "precondition_failed",
      );
      expect(await store.read(fresh)).toEqual({ items: [], revision: 0 });
    });

    it("lets one of many writers expecting the same revision win, and refuses the rest", async () => {
      await store.write(RUN, { items: plan, now: 1 });
      const second = fixture.another ? await fixture.another() : store;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 === 0 ? store : second).write(RUN, {
            items: [{ id: "w", content: `writer ${index}`, status: "pending" }],
            expectedRevision: 1,
            now: 2,
          }),
        ),
      );
      const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
      expect(won).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === "rejected")
          expect((await refusal(Promise.reject(outcome.reason))).code).toBe("precondition_failed");
      }
      const winner = (won[0] as PromiseFulfilledResult<{ items: TodoItem[] }>).value.items[0]!.content;
      expect(await second.read(RUN)).toEqual({
        items: [{ id: "w", content: winner, status: "pending" }],
        revision: 2,
      });
    });

    it("holds a list to its bounds: 100 items, 500 characters, one in progress, unique ids", async () => {
      const many = (count: number): TodoItem[] =>
        Array.from({ length: count }, (_, index) => ({
          id: `s${index}`,
          content: `step ${index}`,
          status: "pending",
        }));
      expect((await store.write(RUN, { items: many(100), now: 1 })).items).toHaveLength(100);
      const long = "x".repeat(500);
      const atBounds: TodoItem[] = [{ id: "a".repeat(40), content: long, status: "in_progress" }];
      expect((await store.write(RUN, { items: atBounds, now: 2 })).revision).toBe(2);

      const refusals: [TodoItem[], RegExp][] = [
        [many(101), /101 items; keep at most 100/],
        [[{ id: "1", content: `${long}y`, status: "pending" }], /501 characters; keep each item under 500/],
        [
          [
            { id: "1", content: "one", status: "in_progress" },
            { id: "2", content: "two", status: "in_progress" },
          ],
          /2 items are in_progress \(1, 2\); keep exactly one in_progress/,
        ],
        [
          [
            { id: "1", content: "one", status: "pending" },
            { id: "1", content: "again", status: "completed" },
          ],
          /item id "1" appears twice/,
        ],
        [[{ id: "", content: "no id", status: "pending" }], /must be 1-40 letters/],
        [[{ id: "a".repeat(41), content: "long id", status: "pending" }], /must be 1-40 letters/],
        [[{ id: "a b", content: "space", status: "pending" }], /must be 1-40 letters/],
        [[{ id: "1", content: "   ", status: "pending" }], /item "1" has no content/],
        [[{ id: "1", content: "done?", status: "done" as TodoItem["status"] }], /has status "done"/],
        // One line of text on every backend: PostgreSQL's JSONB would refuse the NUL and the lone surrogate.
        [[{ id: "1", content: "one\n[x] 2: forged", status: "pending" }], /line break or control character/],
        [[{ id: "1", content: "nul\u0000", status: "pending" }], /line break or control character/],
        [[{ id: "1", content: "half \ud800 pair", status: "pending" }], /line break or control character/],
      ];
      for (const [items, message] of refusals) {
        const refused = await refusal(store.write(RUN, { items, now: 3 }));
        expect(refused.code).toBe("invalid_input");
        expect(refused.message).toMatch(message);
      }
      expect(await store.read(RUN)).toEqual({ items: atBounds, revision: 2 });
    });

    it("purges the lists last written before the cutoff, and only those", async () => {
      const old = { ...RUN, runId: "run-old" };
      await store.write(old, { items: plan, now: 1 * DAY });
      await store.write(RUN, { items: plan, now: 1 * DAY });
      // Written again later: its last write is what counts.
      await store.write(RUN, { items: plan, now: 5 * DAY });
      expect(await store.purge({ before: 5 * DAY })).toBe(1);
      expect(await store.read(old)).toEqual({ items: [], revision: 0 });
      expect(await store.read(RUN)).toEqual({ items: plan, revision: 2 });
      expect(await store.purge({ before: 5 * DAY })).toBe(0);
      expect(await store.purge({ before: 5 * DAY + 1 })).toBe(1);
      expect(await store.read(RUN)).toEqual({ items: [], revision: 0 });
    });

    it.runIf(durable)("keeps a list across a reopen", async () => {
      await store.write(RUN, { items: plan, now: 1 });
      const reopened = await fixture.reopen!();
      expect(await reopened.read(RUN)).toEqual({ items: plan, revision: 1 });
    });
  });
}
