/**
 * @module The one conformance suite every PinStore adapter runs (memory, SQLite, PostgreSQL): listing by server
 * then tool in code-unit order, an offer kept beside the accepted definition, and acceptance only of the
 * definition that was reviewed, once.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PinStore, ToolPin } from "./pin-store.js";

export interface PinStoreFixture {
  store: PinStore;
  /** Drops the store and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<PinStore>;
  cleanup(): Promise<void>;
}

const pinOf = (server: string, tool: string, description: string): ToolPin => ({
  server,
  tool,
  hash: `h-${description}`,
  definition: { description, inputSchema: { type: "object" } },
  acceptedAt: 1,
  acceptedBy: "first import",
});

const offerOf = (description: string, seenAt: number): NonNullable<ToolPin["offered"]> => ({
  hash: `h-${description}`,
  definition: {
    description,
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
    outputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
  },
  seenAt,
});

/** Registers the suite for one adapter; `factory` gives a fresh, empty store for every test. */
export function runPinStoreConformance(name: string, factory: () => Promise<PinStoreFixture>): void {
  describe(`${name} pin store conformance`, () => {
    let fixture: PinStoreFixture;
    let store: PinStore;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it("lists one server's pins or all, by server then tool in code-unit order", async () => {
      await store.put(pinOf("b", "zeta", "z"));
      await store.put(pinOf("a", "beta", "b"));
      await store.put(pinOf("b", "Alpha", "a"));
      await store.put(pinOf("b", "Zulu", "u"));
      await store.put(pinOf("b", "beta", "b"));
      // Upper case before lower, whatever a database's locale would say.
      expect((await store.list("b")).map((entry) => entry.tool)).toEqual(["Alpha", "Zulu", "beta", "zeta"]);
      expect((await store.list()).map((entry) => `${entry.server}/${entry.tool}`)).toEqual([
        "a/beta",
        "b/Alpha",
        "b/Zulu",
        "b/beta",
        "b/zeta",
      ]);
      expect(await store.list("c")).toEqual([]);
    });

    it("gives a pin back as it was put, and replaces it wholesale when put again", async () => {
      const pinned = { ...pinOf("s", "t", "old"), offered: offerOf("new", 3) };
      await store.put(pinned);
      expect(await store.list("s")).toEqual([pinned]);
      await store.put(pinOf("s", "t", "replaced"));
      expect(await store.list("s")).toEqual([pinOf("s", "t", "replaced")]);
    });

    it("keeps an offered change beside the accepted definition until it is accepted, once", async () => {
      await store.put(pinOf("s", "t", "old"));
      expect(await store.accept({ server: "s", tool: "t", hash: "h-new", by: "op", at: 5 })).toBe(false);
      const offered = offerOf("new", 3);
      await store.offer("s", "t", offered);
      expect(await store.list("s")).toEqual([{ ...pinOf("s", "t", "old"), offered }]);
      // What the person reviewed must still be what is offered: a newer offer is not accepted unseen.
      expect(await store.accept({ server: "s", tool: "t", hash: "h-older", by: "reviewer", at: 8 })).toBe(
        false,
      );
      expect(await store.accept({ server: "s", tool: "t", hash: "h-new", by: "reviewer", at: 9 })).toBe(true);
      expect(await store.list("s")).toEqual([
        {
          server: "s",
          tool: "t",
          hash: "h-new",
          definition: offered.definition,
          acceptedAt: 9,
          acceptedBy: "reviewer",
        },
      ]);
      expect(await store.accept({ server: "s", tool: "t", hash: "h-new", by: "reviewer", at: 10 })).toBe(
        false,
      );
    });

    it("accepts only the tool it is asked for", async () => {
      await store.put(pinOf("s", "t", "old"));
      await store.put(pinOf("s", "u", "old"));
      await store.offer("s", "t", offerOf("new", 3));
      await store.offer("s", "u", offerOf("new", 3));
      expect(await store.accept({ server: "s", tool: "t", hash: "h-new", by: "op", at: 4 })).toBe(true);
      expect((await store.list("s")).map((pin) => [pin.tool, pin.hash, pin.offered?.hash])).toEqual([
        ["t", "h-new", undefined],
        ["u", "h-old", "h-new"],
      ]);
      expect(await store.accept({ server: "other", tool: "u", hash: "h-new", by: "op", at: 4 })).toBe(false);
    });

    it("clears an offer when the upstream goes back to what was accepted", async () => {
      await store.put(pinOf("s", "t", "old"));
      await store.offer("s", "t", offerOf("x", 2));
      await store.offer("s", "t", undefined);
      expect(await store.list("s")).toEqual([pinOf("s", "t", "old")]);
      expect(await store.accept({ server: "s", tool: "t", hash: "h-x", by: "op", at: 3 })).toBe(false);
    });

    it("ignores an offer for a tool it has no pin of", async () => {
      await store.offer("s", "missing", offerOf("x", 2));
      expect(await store.list()).toEqual([]);
      expect(await store.accept({ server: "s", tool: "missing", hash: "h-x", by: "op", at: 3 })).toBe(false);
    });

    it("keeps its pins across a reopen, where the adapter is durable", async (context) => {
      if (!fixture.reopen) {
        context.skip();
        return;
      }
      const offered = { ...pinOf("s", "t", "old"), offered: offerOf("new", 3) };
      await store.put(offered);
      const reopened = await fixture.reopen();
      expect(await reopened.list()).toEqual([offered]);
      expect(await reopened.accept({ server: "s", tool: "t", hash: "h-new", by: "op", at: 4 })).toBe(true);
    });
  });
}
