/**
 * @module The one conformance suite every ToolkitRecordStore adapter runs (memory, SQLite, PostgreSQL): a
 * record is added once under its key, updated only over the version its writer read, seen only by its owner
 * (toolkit, tenant and principal), listed newest first a page at a time, and purged by its age.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  recordCursor,
  TOOLKIT_RECORD_LIMITS,
  type ToolkitRecordKey,
  type ToolkitRecordOwner,
  type ToolkitRecordStore,
} from "../../src/ports/toolkit-record-store.js";

export interface ToolkitRecordStoreFixture {
  store: ToolkitRecordStore;
  /** Drops the store and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<ToolkitRecordStore>;
  /** A second connection to the same storage, as another instance would have; only shared adapters provide it. */
  another?: () => Promise<ToolkitRecordStore>;
  cleanup(): Promise<void>;
}

const OWNER: ToolkitRecordOwner = { toolkit: "email", tenantId: "tenant-a", principalId: "user:alice" };
const KEY: ToolkitRecordKey = { ...OWNER, id: "msg-1" };
const DAY = 86_400_000;

const sent = { to: ["bob@example.com"], subject: "Invoice", status: "accepted", attempts: [{ code: 250 }] };

/** Every record of `owner`, following the cursor `size` at a time; fails on a loop. */
async function everyPage(store: ToolkitRecordStore, owner: ToolkitRecordOwner, size: number) {
  const ids: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const page = await store.list({ ...owner, limit: size, ...(after ? { after } : {}) });
    expect(page.records.length).toBeLessThanOrEqual(size);
    ids.push(...page.records.map((record) => record.id));
    if (!page.next) return ids;
    after = page.next;
  }
  throw new Error("the cursor never reached the last page");
}

/**
 * Registers the suite for one adapter; `factory` gives a fresh, empty store for every test. A durable
 * adapter's fixture has `reopen`, and the suite checks a record outlives it.
 */
export function runToolkitRecordStoreConformance(
  name: string,
  factory: () => Promise<ToolkitRecordStoreFixture>,
  { durable }: { durable: boolean },
): void {
  describe(`${name} toolkit record store conformance`, () => {
    let fixture: ToolkitRecordStoreFixture;
    let store: ToolkitRecordStore;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it("adds a record at version 1 and reads it back as its JSON", async () => {
      expect(await store.get(KEY)).toBeUndefined();
      const data = {
        ...sent,
        // What a store's own text encoding could mangle: NUL, a lone surrogate, a pair, quotes, a big number.
        body: 'nul\u0000 half \ud800 pair 😀 "quoted" \\ back',
        size: 2 ** 53 - 1,
        nested: { empty: [], nothing: null, flag: false, ratio: 0.25 },
      };
      expect(await store.add({ ...KEY, data, at: 5 })).toBe(true);
      expect(await store.get(KEY)).toEqual({ ...KEY, createdAt: 5, updatedAt: 5, version: 1, data });
      // A bare string, number or null is JSON too.
      for (const [id, value] of [
        ["s", "text"],
        ["n", 42],
        ["z", null],
      ] as const) {
        await store.add({ ...OWNER, id, data: value, at: 6 });
        expect((await store.get({ ...OWNER, id }))?.data).toEqual(value);
      }
    });

    it("stores the data as JSON and hands out copies", async () => {
      const data = { kept: "yes", dropped: undefined, when: new Date(0), list: [1, 2] };
      await store.add({ ...KEY, data, at: 1 });
      data.list.push(3);
      const read = await store.get(KEY);
      expect(read?.data).toStrictEqual({ kept: "yes", when: "1970-01-01T00:00:00.000Z", list: [1, 2] });
      (read!.data as { kept: string }).kept = "changed by the caller";
      const listed = await store.list({ ...OWNER, limit: 10 });
      (listed.records[0]!.data as { list: number[] }).list.length = 0;
      expect((await store.get(KEY))?.data).toEqual({
        kept: "yes",
        when: "1970-01-01T00:00:00.000Z",
        list: [1, 2],
      });
    });

    it("refuses to add over a key that is taken, and changes nothing", async () => {
      expect(await store.add({ ...KEY, data: sent, at: 1 })).toBe(true);
      expect(await store.add({ ...KEY, data: { other: true }, at: 2 })).toBe(false);
      expect(await store.get(KEY)).toEqual({ ...KEY, createdAt: 1, updatedAt: 1, version: 1, data: sent });
    });

    it("updates over the version read, moving the version on and keeping the creation time", async () => {
      await store.add({ ...KEY, data: sent, at: 1 });
      const delivered = { ...sent, status: "delivered" };
      expect(await store.update({ ...KEY, data: delivered, version: 1, at: 7 })).toBe(true);
      expect(await store.get(KEY)).toEqual({
        ...KEY,
        createdAt: 1,
        updatedAt: 7,
        version: 2,
        data: delivered,
      });
      for (const stale of [0, 1, 3]) {
        expect(await store.update({ ...KEY, data: { stale }, version: stale, at: 8 })).toBe(false);
      }
      expect(await store.get(KEY)).toEqual({
        ...KEY,
        createdAt: 1,
        updatedAt: 7,
        version: 2,
        data: delivered,
      });
      // An update never creates: a record that is gone stays gone.
      const missing = { ...KEY, id: "msg-missing" };
      expect(await store.update({ ...missing, data: sent, version: 1, at: 9 })).toBe(false);
      expect(await store.get(missing)).toBeUndefined();
    });

    it("lets exactly one of many adds of one key win, on two connections", async () => {
      const second = fixture.another ? await fixture.another() : store;
      const added = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 === 0 ? store : second).add({ ...KEY, data: { writer: index }, at: index + 1 }),
        ),
      );
      expect(added.filter(Boolean)).toHaveLength(1);
      const winner = added.indexOf(true);
      expect(await second.get(KEY)).toEqual({
        ...KEY,
        createdAt: winner + 1,
        updatedAt: winner + 1,
        version: 1,
        data: { writer: winner },
      });
    });

    it("lets exactly one of many updates over one version win, on two connections", async () => {
      await store.add({ ...KEY, data: sent, at: 1 });
      const second = fixture.another ? await fixture.another() : store;
      const updated = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 === 0 ? store : second).update({ ...KEY, data: { writer: index }, version: 1, at: 2 }),
        ),
      );
      expect(updated.filter(Boolean)).toHaveLength(1);
      expect(await store.get(KEY)).toMatchObject({ version: 2, data: { writer: updated.indexOf(true) } });
    });

    it("keeps each toolkit's, tenant's and principal's records apart", async () => {
      const others: ToolkitRecordOwner[] = [
        { ...OWNER, toolkit: "slack" },
        { ...OWNER, tenantId: "tenant-b" },
        { ...OWNER, principalId: "user:bob" },
        // Owners that would collide if the three parts were joined with a separator.
        { toolkit: "email", tenantId: "tenant-a:user", principalId: "alice" },
        { toolkit: "email:tenant-a", tenantId: "user", principalId: "alice" },
      ];
      await store.add({ ...KEY, data: sent, at: 1 });
      for (const owner of others) {
        const theirs = { ...owner, id: KEY.id };
        expect(await store.get(theirs)).toBeUndefined();
        expect(await store.list({ ...owner, limit: 100 })).toEqual({ records: [] });
        expect(await store.update({ ...theirs, data: { hijacked: true }, version: 1, at: 2 })).toBe(false);
      }
      // The same id is free under every other owner, and each keeps its own.
      for (const [index, owner] of others.entries()) {
        expect(await store.add({ ...owner, id: KEY.id, data: { index }, at: 3 })).toBe(true);
      }
      for (const [index, owner] of others.entries()) {
        expect((await store.list({ ...owner, limit: 100 })).records.map((record) => record.data)).toEqual([
          { index },
        ]);
      }
      expect(await store.get(KEY)).toEqual({ ...KEY, createdAt: 1, updatedAt: 1, version: 1, data: sent });
    });

    it("lists newest first by creation then id, and pages through ties without a gap or a repeat", async () => {
      // Ids that a collation other than bytewise would order differently: case, punctuation, digits.
      const tied = ["a", "B", "a.b", "a-b", "A:1", "a_b", "z9", "Z10", "0"];
      for (const id of tied) await store.add({ ...OWNER, id, data: { id }, at: 10 });
      await store.add({ ...OWNER, id: "older", data: {}, at: 5 });
      await store.add({ ...OWNER, id: "newer", data: {}, at: 20 });
      // Updated later, still listed by its creation.
      await store.update({ ...OWNER, id: "older", data: { touched: true }, version: 1, at: 30 });
      const expected = ["newer", ...[...tied].sort().reverse(), "older"];
      expect((await store.list({ ...OWNER, limit: 100 })).records.map((record) => record.id)).toEqual(
        expected,
      );
      for (const size of [1, 2, 4, 11]) expect(await everyPage(store, OWNER, size)).toEqual(expected);

      const first = await store.list({ ...OWNER, limit: 3 });
      expect(first.records.map((record) => record.id)).toEqual(expected.slice(0, 3));
      expect(first.next).toBe(recordCursor(first.records[2]!));
      // Added while paging: one newer than the cursor shifts nothing; one behind it shows up in its place.
      await store.add({ ...OWNER, id: "newest", data: {}, at: 40 });
      await store.add({ ...OWNER, id: "a.c", data: {}, at: 10 });
      expect(first.records.map((record) => record.id)).toEqual(["newer", "z9", "a_b"]);
      const second = await store.list({ ...OWNER, limit: 3, after: first.next! });
      expect(second.records.map((record) => record.id)).toEqual(["a.c", "a.b", "a-b"]);
      // The last page has no cursor.
      const last = await store.list({
        ...OWNER,
        limit: 100,
        after: recordCursor({ createdAt: 10, id: "0" }),
      });
      expect(last).toEqual({ records: [expect.objectContaining({ id: "older" })] });
    });

    it("holds a page to 1–100 records", async () => {
      for (let index = 0; index < 101; index++)
        await store.add({ ...OWNER, id: `r${String(index).padStart(3, "0")}`, data: index, at: index });
      const sizeOf = async (limit: number) => (await store.list({ ...OWNER, limit })).records.length;
      expect(await sizeOf(1000)).toBe(TOOLKIT_RECORD_LIMITS.pageSize);
      expect(await sizeOf(100)).toBe(100);
      expect(await sizeOf(0)).toBe(1);
      expect(await sizeOf(-5)).toBe(1);
      expect(await sizeOf(Number.NaN)).toBe(1);
      expect(await sizeOf(2.7)).toBe(2);
      const page = await store.list({ ...OWNER, limit: 100 });
      expect(page.records[0]!.id).toBe("r100");
      expect(
        (await store.list({ ...OWNER, limit: 100, after: page.next! })).records.map((r) => r.id),
      ).toEqual(["r000"]);
    });

    it("starts from the newest on a cursor no store wrote", async () => {
      await store.add({ ...OWNER, id: "one", data: 1, at: 1 });
      await store.add({ ...OWNER, id: "two", data: 2, at: 2 });
      const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
      const garbage = [
        "",
        "not a cursor",
        "%%%",
        b64({ createdAt: 1, id: "one" }),
        b64(["1", "one"]),
        b64([1.5, "one"]),
        b64([1, 2]),
        b64(null),
        Buffer.from("[1,", "utf8").toString("base64url"),
      ];
      for (const after of garbage) {
        expect((await store.list({ ...OWNER, limit: 10, after })).records.map((record) => record.id)).toEqual(
          ["two", "one"],
        );
      }
    });

    it("refuses a bad id or data that is not JSON within the cap before writing anything", async () => {
      await store.add({ ...KEY, data: sent, at: 1 });
      const atCap = "x".repeat(TOOLKIT_RECORD_LIMITS.dataBytes - 2);
      expect(
        await store.add({ ...OWNER, id: "a".repeat(TOOLKIT_RECORD_LIMITS.idChars), data: atCap, at: 1 }),
      ).toBe(true);
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const badData: unknown[] = [
        undefined,
        () => 1,
        Symbol("s"),
        1n,
        circular,
        `${atCap}x`,
        "é".repeat(40_000),
      ];
      const badIds = [
        "",
        "a".repeat(TOOLKIT_RECORD_LIMITS.idChars + 1),
        "-leading",
        "has space",
        "a/b",
        "é",
        "a\u0000",
      ];
      for (const data of badData) {
        await expect(store.add({ ...OWNER, id: "fresh", data, at: 2 })).rejects.toThrow(TypeError);
        await expect(store.update({ ...KEY, data, version: 1, at: 2 })).rejects.toThrow(TypeError);
      }
      for (const id of badIds) {
        await expect(store.add({ ...OWNER, id, data: sent, at: 2 })).rejects.toThrow(TypeError);
        await expect(store.update({ ...OWNER, id, data: sent, version: 1, at: 2 })).rejects.toThrow(
          TypeError,
        );
      }
      expect(await store.get({ ...OWNER, id: "fresh" })).toBeUndefined();
      expect(await store.get(KEY)).toEqual({ ...KEY, createdAt: 1, updatedAt: 1, version: 1, data: sent });
      expect((await store.list({ ...OWNER, limit: 100 })).records).toHaveLength(2);
    });

    it("purges the records created before the cutoff, whoever owns them, however recently updated", async () => {
      await store.add({ ...KEY, data: sent, at: 1 * DAY });
      await store.update({ ...KEY, data: sent, version: 1, at: 9 * DAY });
      await store.add({ ...OWNER, tenantId: "tenant-b", id: "old", data: sent, at: 2 * DAY });
      await store.add({ ...OWNER, id: "kept", data: sent, at: 5 * DAY });
      expect(await store.purge({ before: 5 * DAY })).toBe(2);
      expect(await store.get(KEY)).toBeUndefined();
      expect(await store.get({ ...OWNER, tenantId: "tenant-b", id: "old" })).toBeUndefined();
      expect(await store.get({ ...OWNER, id: "kept" })).toMatchObject({ version: 1 });
      expect(await store.purge({ before: 5 * DAY })).toBe(0);
      expect(await store.purge({ before: 5 * DAY + 1 })).toBe(1);
      expect(await store.list({ ...OWNER, limit: 100 })).toEqual({ records: [] });
      // A purged key is free again.
      expect(await store.add({ ...KEY, data: sent, at: 10 * DAY })).toBe(true);
    });

    it.runIf(durable)("keeps a record across a reopen", async () => {
      await store.add({ ...KEY, data: sent, at: 1 });
      await store.update({ ...KEY, data: { ...sent, status: "delivered" }, version: 1, at: 2 });
      const reopened = await fixture.reopen!();
      expect(await reopened.get(KEY)).toEqual({
        ...KEY,
        createdAt: 1,
        updatedAt: 2,
        version: 2,
        data: { ...sent, status: "delivered" },
      });
      expect(await reopened.update({ ...KEY, data: sent, version: 2, at: 3 })).toBe(true);
    });
  });
}
