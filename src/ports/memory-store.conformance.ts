/**
 * @module The one conformance suite every MemoryStore adapter runs (memory, SQLite, PostgreSQL): what the three
 * engines' searches share (a word finds, more of the query's words rank first, the limit holds, no match is an
 * empty answer), the caps, forgetting, newest-first pages, and another principal's memories out of reach of
 * every method, in the same tenant as in another.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MEMORY_LIMITS, type Memory, type MemoryOwner, type MemoryStore } from "./memory-store.js";

export interface MemoryStoreFixture {
  store: MemoryStore;
  /** Drops the store and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<MemoryStore>;
  cleanup(): Promise<void>;
}

/** The cap the suite's stores are opened with, so filling one takes a few saves. */
export const CONFORMANCE_MAX_MEMORIES = 5;

const ADA: MemoryOwner = { tenantId: "acme", principalId: "user:ada" };
const BOB: MemoryOwner = { tenantId: "acme", principalId: "user:bob" };
const ADA_ELSEWHERE: MemoryOwner = { tenantId: "globex", principalId: "user:ada" };

/** Registers the suite for one adapter; `factory` gives a fresh, empty store capped at CONFORMANCE_MAX_MEMORIES. */
export function runMemoryStoreConformance(name: string, factory: () => Promise<MemoryStoreFixture>): void {
  describe(`${name} memory store conformance`, () => {
    let fixture: MemoryStoreFixture;
    let store: MemoryStore;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    const save = async (owner: MemoryOwner, text: string, at: number, tags?: string[]): Promise<Memory> => {
      const outcome = await store.save(owner, { text, at, ...(tags ? { tags } : {}) });
      if (!outcome.saved) throw new Error(`not saved: ${outcome.reason}`);
      return outcome.memory;
    };

    it("saves a memory with an id, its tags and its time, and finds it by a word of its text or a tag", async () => {
      const saved = await save(ADA, "The quarterly invoice goes to Marta in accounting", 1_000, ["billing"]);
      expect(saved).toEqual({
        id: expect.stringMatching(/^mem_[0-9a-f]{16}$/),
        text: "The quarterly invoice goes to Marta in accounting",
        tags: ["billing"],
        createdAt: 1_000,
      });
      expect(await store.search(ADA, { query: "invoice", limit: 5 })).toEqual([saved]);
      expect(await store.search(ADA, { query: "Marta", limit: 5 })).toEqual([saved]);
      expect(await store.search(ADA, { query: "billing", limit: 5 })).toEqual([saved]);
      const second = await save(ADA, "Prefers short answers", 2_000);
      expect(second.id).not.toBe(saved.id);
      expect(second.tags).toEqual([]);
    });

    it("ranks a memory holding more of the query's words first, and keeps to the limit", async () => {
      const one = await save(ADA, "The invoice template lives in the shared drive", 1_000);
      const both = await save(ADA, "Send the invoice to the Paris office", 2_000);
      await save(ADA, "The Lisbon office closes at six", 3_000);
      const found = await store.search(ADA, { query: "Paris invoice", limit: 5 });
      expect(found.map((memory) => memory.id)).toEqual([both.id, one.id]);
      expect(await store.search(ADA, { query: "Paris invoice", limit: 1 })).toEqual([both]);
    });

    it("ranks by the owner's memories alone: words other people hold never change the order", async () => {
      // Bob's notes make "falcon" common across the deployment and leave "qwzzy" rare.
      for (let at = 1; at <= 5; at++) await save(BOB, `falcon report ${at}`, at);
      const rare = await save(ADA, "note qwzzy", 1_000);
      const common = await save(ADA, "note falcon", 2_000);
      // Each holds one of the words: newest first, whatever a deployment-wide weight would say.
      const found = await store.search(ADA, { query: "falcon qwzzy", limit: 5 });
      expect(found.map((memory) => memory.id)).toEqual([common.id, rare.id]);
    });

    it("answers an empty list when nothing matches or the query has no word", async () => {
      await save(ADA, "The invoice goes to Marta", 1_000);
      expect(await store.search(ADA, { query: "kangaroo", limit: 5 })).toEqual([]);
      expect(await store.search(ADA, { query: '"*)( ^ -- ;', limit: 5 })).toEqual([]);
      expect(await store.search(ADA, { query: "", limit: 5 })).toEqual([]);
    });

    it("reads query syntax as words: FTS5 and tsquery operators in a query are not obeyed", async () => {
      const memory = await save(ADA, "Deploy on Tuesday only", 1_000);
      for (const query of ['tuesday" OR "x', "tuesday NEAR(x)", "tuesday & !deploy", "-tuesday", "tues*"]) {
        const found = await store.search(ADA, { query, limit: 5 });
        if (query === "tues*") expect(found, query).toEqual([]);
        else expect(found, query).toEqual([memory]);
      }
    });

    it("keeps each principal's memories from every other, in the same tenant and in another", async () => {
      const adas = await save(ADA, "My locker code is 4711", 1_000);
      const bobs = await save(BOB, "Bob's locker is number 12", 2_000);
      await save(ADA_ELSEWHERE, "The other Ada's locker is blue", 3_000);

      expect(await store.search(ADA, { query: "locker", limit: 10 })).toEqual([adas]);
      expect(await store.search(BOB, { query: "4711 locker code", limit: 10 })).toEqual([bobs]);
      expect(await store.search(BOB, { query: "4711 code", limit: 10 })).toEqual([]);
      expect((await store.list(BOB, { limit: 10 })).memories).toEqual([bobs]);
      expect((await store.list(ADA_ELSEWHERE, { limit: 10 })).memories).toHaveLength(1);
      // Knowing the id is not enough: another principal's forget finds nothing to delete.
      expect(await store.forget(BOB, adas.id)).toBe(false);
      expect(await store.forget(ADA_ELSEWHERE, adas.id)).toBe(false);
      expect((await store.list(ADA, { limit: 10 })).memories).toEqual([adas]);
      // Bob's memories do not count toward Ada's cap.
      for (let n = 1; n < CONFORMANCE_MAX_MEMORIES; n++) await save(ADA, `note ${n}`, 4_000 + n);
      expect((await store.save(ADA, { text: "full now", at: 9_000 })).saved).toBe(false);
      expect((await store.save(BOB, { text: "still room", at: 9_000 })).saved).toBe(true);
    });

    it("forgets one memory of its owner, once", async () => {
      const kept = await save(ADA, "Keep the invoice", 1_000);
      const gone = await save(ADA, "Forget the invoice", 2_000);
      expect(await store.forget(ADA, gone.id)).toBe(true);
      expect(await store.forget(ADA, gone.id)).toBe(false);
      expect(await store.forget(ADA, "mem_0000000000000000")).toBe(false);
      expect(await store.search(ADA, { query: "invoice", limit: 5 })).toEqual([kept]);
      expect((await store.list(ADA, { limit: 5 })).memories).toEqual([kept]);
    });

    it("refuses a save past the owner's count cap until one is forgotten", async () => {
      const first = await save(ADA, "memory 0", 1_000);
      for (let n = 1; n < CONFORMANCE_MAX_MEMORIES; n++) await save(ADA, `memory ${n}`, 1_000 + n);
      expect(await store.save(ADA, { text: "one too many", at: 2_000 })).toEqual({
        saved: false,
        reason: "full",
        limit: CONFORMANCE_MAX_MEMORIES,
      });
      expect(await store.forget(ADA, first.id)).toBe(true);
      expect((await store.save(ADA, { text: "now there is room", at: 3_000 })).saved).toBe(true);
    });

    it("refuses a text over the size cap, counted in UTF-8 bytes", async () => {
      const limit = MEMORY_LIMITS.textBytes;
      expect((await store.save(ADA, { text: "a".repeat(limit), at: 1 })).saved).toBe(true);
      // 1,367 three-byte characters are 4,101 bytes: under the cap in characters, over it in bytes.
      expect(await store.save(ADA, { text: "€".repeat(Math.ceil(limit / 3) + 1), at: 2 })).toEqual({
        saved: false,
        reason: "too_large",
        limit,
      });
      expect((await store.list(ADA, { limit: 10 })).memories).toHaveLength(1);
    });

    it("lists newest first, a page at a time, ties in time broken the same way on every page", async () => {
      const saved: Memory[] = [];
      for (const [n, at] of [1_000, 3_000, 2_000, 3_000, 4_000].entries())
        saved.push(await save(ADA, `m${n}`, at));
      const first = await store.list(ADA, { limit: 2 });
      expect(first.memories.map((memory) => memory.createdAt)).toEqual([4_000, 3_000]);
      expect(first.next).toEqual(expect.any(String));
      const second = await store.list(ADA, { limit: 2, after: first.next });
      const third = await store.list(ADA, { limit: 2, after: second.next });
      expect(third.next).toBeUndefined();
      const all = [...first.memories, ...second.memories, ...third.memories];
      expect(all.map((memory) => memory.createdAt)).toEqual([4_000, 3_000, 3_000, 2_000, 1_000]);
      expect(new Set(all.map((memory) => memory.id)).size).toBe(5);
      expect([...all].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        [...saved].sort((a, b) => a.id.localeCompare(b.id)),
      );
      expect(await store.list(BOB, { limit: 2 })).toEqual({ memories: [] });
      await expect(store.list(ADA, { limit: 2, after: "not a cursor" })).rejects.toThrow(/cursor/);
    });

    it("keeps memories across a reopen, searchable", async () => {
      if (!fixture.reopen) return;
      const saved = await save(ADA, "Durable note about the invoice", 1_000);
      store = await fixture.reopen();
      expect(await store.search(ADA, { query: "invoice", limit: 5 })).toEqual([saved]);
      expect(await store.forget(ADA, saved.id)).toBe(true);
      expect(await store.search(ADA, { query: "invoice", limit: 5 })).toEqual([]);
    });
  });
}
