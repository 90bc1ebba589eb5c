/**
 * @module The one conformance suite every KnowledgeBase adapter runs (memory, SQLite, PostgreSQL): tenants and
 * subjects kept apart in every method, hybrid ranking beating words and vectors alone on a built case, an
 * honest empty answer, a re-index that swaps a source's chunks in one step, staged vectors that survive an
 * interruption, removal and a reopen.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  KNOWLEDGE_LIMITS,
  type KnowledgeBase,
  type KnowledgeReader,
  type NewChunk,
  SupersededIngestError,
} from "./knowledge-base.js";
import { sha256Hex } from "./knowledge-ranking.js";

export interface KnowledgeBaseFixture {
  store: KnowledgeBase;
  /** Drops the store and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<KnowledgeBase>;
  cleanup(): Promise<void>;
}

const MODEL = "test-3d";
const ADA: KnowledgeReader = { tenantId: "acme", subjects: ["principal:ada", "team:finance"] };
const BOB: KnowledgeReader = { tenantId: "acme", subjects: ["principal:bob"] };
/** Bob as a member of the tenant: he holds `tenant` too. */
const MEMBER_BOB: KnowledgeReader = { tenantId: "acme", subjects: ["tenant", "principal:bob"] };
const ELSEWHERE: KnowledgeReader = { tenantId: "globex", subjects: ["principal:ada", "team:finance"] };

const chunk = (text: string, page?: number, headings: string[] = []): NewChunk => ({
  text,
  textHash: sha256Hex(text),
  location: { ...(page === undefined ? {} : { page }), headings },
});

export function runKnowledgeBaseConformance(
  name: string,
  factory: () => Promise<KnowledgeBaseFixture>,
): void {
  describe(`${name} knowledge base conformance`, () => {
    let fixture: KnowledgeBaseFixture;
    let store: KnowledgeBase;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    /** Indexes a source whose chunks carry the given vectors; returns its id. */
    const index = async (
      tenantId: string,
      subjects: string[],
      chunks: { chunk: NewChunk; vector: number[] }[],
      title = "Handbook",
      id?: string,
    ) => {
      const source = await store.begin(tenantId, {
        ...(id ? { id } : {}),
        title,
        kind: "text",
        origin: "text",
        authSubjects: subjects,
        model: MODEL,
        now: 1_000,
      });
      if (!source) throw new Error("no source");
      await store.stageVectors(
        tenantId,
        source.id,
        MODEL,
        chunks.map(({ chunk: c, vector }) => ({ textHash: c.textHash, vector })),
      );
      await store.commit(tenantId, source.id, {
        contentHash: sha256Hex(chunks.map(({ chunk: c }) => c.text).join("\n")),
        chunks: chunks.map(({ chunk: c }) => c),
        now: 2_000,
        generation: source.generation,
      });
      return source.id;
    };
    const search = (reader: KnowledgeReader, text: string, vector?: number[], mode?: "words" | "vectors") =>
      store.search(reader, {
        text,
        limit: 5,
        ...(vector ? { vector: { model: MODEL, values: vector } } : {}),
        ...(mode ? { mode } : {}),
      });

    it("indexes a source, finds its chunk by a word with its place and source, and reads it back", async () => {
      const id = await index(
        "acme",
        ["team:finance"],
        [
          {
            chunk: chunk("Refunds are paid within fourteen days", 3, ["Terms", "Refunds"]),
            vector: [1, 0, 0],
          },
          {
            chunk: chunk("Deliveries leave the warehouse on Mondays", 4, ["Terms", "Delivery"]),
            vector: [0, 1, 0],
          },
        ],
      );
      const source = await store.get("acme", id);
      expect(source).toMatchObject({
        id: expect.stringMatching(/^ks_[0-9a-f]{16}$/),
        title: "Handbook",
        kind: "text",
        authSubjects: ["team:finance"],
        model: MODEL,
        status: "ready",
        chunkCount: 2,
        indexedAt: 2_000,
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      const hits = await search(ADA, "refunds");
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({
        chunk: {
          id: expect.stringMatching(/^kc_/),
          sourceId: id,
          ordinal: 0,
          text: "Refunds are paid within fourteen days",
          location: { page: 3, headings: ["Terms", "Refunds"] },
        },
        source: { id, title: "Handbook", kind: "text", origin: "text" },
      });
      const read = await store.readChunk(ADA, hits[0]!.chunk.id);
      expect(read?.chunk).toEqual(hits[0]!.chunk);
    });

    it("keeps a source from another tenant and from a reader holding none of its subjects, in every method", async () => {
      const id = await index(
        "acme",
        ["principal:ada"],
        [{ chunk: chunk("The vault combination is kept by finance"), vector: [1, 0, 0] }],
      );
      const [hit] = await search(ADA, "vault combination", [1, 0, 0]);
      expect(hit).toBeDefined();
      for (const reader of [BOB, ELSEWHERE]) {
        expect(await search(reader, "vault combination", [1, 0, 0])).toEqual([]);
        expect(await store.readChunk(reader, hit!.chunk.id)).toBeUndefined();
      }
      expect(await store.get("globex", id)).toBeUndefined();
      expect((await store.list("globex", { limit: 10 })).sources).toEqual([]);
      expect(await store.remove("globex", id)).toBe(false);
      expect(
        await store.begin("globex", {
          id,
          title: "x",
          kind: "text",
          origin: "text",
          authSubjects: ["a"],
          model: MODEL,
          now: 1,
        }),
      ).toBeUndefined();
      expect(await store.get("acme", id)).toBeDefined();
      // A subject held through a team scope opens it as the principal does.
      const shared = await index(
        "acme",
        ["team:finance", "principal:carol"],
        [{ chunk: chunk("Quarterly budget review in March"), vector: [0, 1, 0] }],
      );
      expect((await search(ADA, "budget")).map((h) => h.source.id)).toEqual([shared]);
      expect(await search(BOB, "budget")).toEqual([]);
    });

    it("ranks by words and by vectors fused, finding what neither finds first alone", async () => {
      await index(
        "acme",
        ["team:finance"],
        [
          // Both words, far from the query's meaning: first by words, under the floor by vector.
          { chunk: chunk("invoice refund policy for partners"), vector: [0, 1, 0] },
          // No word of the query, nearest by vector.
          { chunk: chunk("money back when a customer returns goods"), vector: [1, 0, 0] },
          // One word and near: second in each ranking, first in the fusion.
          { chunk: chunk("how a refund reaches the customer account"), vector: [0.9, 0.2, 0] },
          { chunk: chunk("office plants need water weekly"), vector: [0, 0, 1] },
        ],
      );
      const top = async (mode?: "words" | "vectors") =>
        (await search(ADA, "invoice refund", [1, 0, 0], mode))[0]?.chunk.text;
      expect(await top("words")).toBe("invoice refund policy for partners");
      expect(await top("vectors")).toBe("money back when a customer returns goods");
      expect(await top()).toBe("how a refund reaches the customer account");
      const hybrid = await search(ADA, "invoice refund", [1, 0, 0]);
      expect(hybrid.map((h) => h.chunk.text)).not.toContain("office plants need water weekly");
      expect(hybrid[0]!.score).toBeGreaterThan(hybrid[1]!.score);
    });

    it("answers a query nothing matches with nothing: no weak vector hit under the floor, no query syntax read", async () => {
      await index(
        "acme",
        ["team:finance"],
        [{ chunk: chunk("Refunds are paid within fourteen days"), vector: [1, 0, 0] }],
      );
      expect(await search(ADA, "zebra crossing", [0, 0.2, 1])).toEqual([]);
      expect(await search(ADA, "", [0, 0, 1])).toEqual([]);
      for (const hostile of [
        '"refunds',
        "refunds OR NEAR(",
        "refunds* -days",
        "refunds & !paid |",
        "'; DROP TABLE x; --",
      ]) {
        const hits = await search(ADA, hostile);
        expect(hits.every((h) => h.chunk.text.startsWith("Refunds"))).toBe(true);
      }
      expect(await search(ADA, "refunds", [1, 0, 0, 0])).toHaveLength(1);
    });

    it("re-indexes a source in one step: old chunks stay found until the commit, then only the new ones", async () => {
      const id = await index(
        "acme",
        ["team:finance"],
        [{ chunk: chunk("The old travel policy allows first class"), vector: [1, 0, 0] }],
      );
      const again = await store.begin("acme", {
        id,
        title: "Handbook v2",
        kind: "text",
        origin: "text",
        authSubjects: ["team:finance"],
        model: MODEL,
        now: 3_000,
      });
      expect(again).toMatchObject({ id, status: "indexing", chunkCount: 1, title: "Handbook v2" });
      const known = await store.knownVectors("acme", id, MODEL);
      expect(known.get(sha256Hex("The old travel policy allows first class"))).toEqual([1, 0, 0]);
      expect(await store.knownVectors("acme", id, "another-model")).toEqual(new Map());
      const fresh = chunk("The new travel policy allows economy only");
      // Nothing staged for the new chunk: the commit is refused and the old chunk is still there.
      await expect(
        store.commit("acme", id, {
          contentHash: "h",
          chunks: [fresh],
          now: 4_000,
          generation: again!.generation,
        }),
      ).rejects.toThrow();
      expect((await search(ADA, "travel"))[0]?.chunk.text).toBe("The old travel policy allows first class");
      await store.stageVectors("acme", id, MODEL, [{ textHash: fresh.textHash, vector: [0, 1, 0] }]);
      await store.interrupted("acme", id, "the embedder failed");
      expect(await store.get("acme", id)).toMatchObject({ status: "indexing", error: "the embedder failed" });
      expect((await search(ADA, "travel"))[0]?.chunk.text).toBe("The old travel policy allows first class");
      const committed = await store.commit("acme", id, {
        contentHash: sha256Hex(fresh.text),
        chunks: [fresh],
        now: 5_000,
        generation: again!.generation,
      });
      expect(committed).toMatchObject({
        status: "ready",
        chunkCount: 1,
        indexedAt: 5_000,
        contentHash: sha256Hex(fresh.text),
      });
      expect(committed.error).toBeUndefined();
      expect((await search(ADA, "travel")).map((h) => h.chunk.text)).toEqual([
        "The new travel policy allows economy only",
      ]);
      expect(await search(ADA, "first class")).toEqual([]);
      // The replaced chunk's vector is gone with it.
      expect([...(await store.knownVectors("acme", id, MODEL)).keys()]).toEqual([fresh.textHash]);
    });

    it("refuses a chunk read back once its source's subjects no longer include the reader", async () => {
      const id = await index(
        "acme",
        ["principal:ada"],
        [{ chunk: chunk("Salary bands for 2027"), vector: [1, 0, 0] }],
      );
      const [hit] = await search(ADA, "salary");
      expect(await store.readChunk(ADA, hit!.chunk.id)).toBeDefined();
      const again = await store.begin("acme", {
        id,
        title: "Handbook",
        kind: "text",
        origin: "text",
        authSubjects: ["principal:bob"],
        model: MODEL,
        now: 6_000,
      });
      expect(again).toMatchObject({ authSubjects: ["principal:ada"], pendingSubjects: ["principal:bob"] });
      expect(await store.readChunk(ADA, hit!.chunk.id)).toBeUndefined();
      expect(await search(ADA, "salary")).toEqual([]);
      // Bob is given the source's new chunks at the commit, never its old ones before it.
      expect(await store.readChunk(BOB, hit!.chunk.id)).toBeUndefined();
      const committed = await store.commit("acme", id, {
        contentHash: "h2",
        chunks: [chunk("Salary bands for 2027")],
        now: 7_000,
        generation: again!.generation,
      });
      expect(committed.authSubjects).toEqual(["principal:bob"]);
      expect(committed.pendingSubjects).toBeUndefined();
      expect(await store.readChunk(BOB, hit!.chunk.id)).toBeDefined();
      expect(await store.readChunk(ADA, hit!.chunk.id)).toBeUndefined();
    });

    it("keeps a re-index widening a source's readers from showing its old chunks to the new readers until the commit", async () => {
      const id = await index(
        "acme",
        ["principal:ada"],
        [{ chunk: chunk("Salary of Carol is 190k."), vector: [1, 0, 0] }],
      );
      const again = await store.begin("acme", {
        id,
        title: "Salaries",
        kind: "text",
        origin: "text",
        authSubjects: ["tenant"],
        model: MODEL,
        now: 3_000,
      });
      // The embedder fails: the source stays indexing, its old chunk read by Ada alone.
      await store.interrupted("acme", id, "the embedder failed");
      expect(await search(MEMBER_BOB, "salary carol", [1, 0, 0])).toEqual([]);
      expect((await store.list("acme", { limit: 10, subjects: MEMBER_BOB.subjects })).sources).toEqual([]);
      // Ada, a member of the tenant too, holds an old subject and a new one: she still reads it.
      const [hit] = await search({ ...ADA, subjects: [...ADA.subjects, "tenant"] }, "salary carol");
      expect(hit).toBeDefined();
      expect(await store.readChunk(MEMBER_BOB, hit!.chunk.id)).toBeUndefined();
      const stated = chunk("Salaries are set by the board.");
      await store.stageVectors("acme", id, MODEL, [{ textHash: stated.textHash, vector: [0, 1, 0] }]);
      await store.commit("acme", id, {
        contentHash: "h",
        chunks: [stated],
        now: 4_000,
        generation: again!.generation,
      });
      expect((await search(MEMBER_BOB, "salaries")).map((h) => h.chunk.text)).toEqual([stated.text]);
      expect(await search(MEMBER_BOB, "carol")).toEqual([]);
    });

    it("refuses the commit of an ingestion a later begin of the same source superseded, changing nothing", async () => {
      const id = await index(
        "acme",
        ["team:finance"],
        [{ chunk: chunk("Expenses are filed monthly"), vector: [1, 0, 0] }],
      );
      const begin = (title: string) =>
        store.begin("acme", {
          id,
          title,
          kind: "text",
          origin: "text",
          authSubjects: ["team:finance"],
          model: MODEL,
          now: 3_000,
        });
      const first = await begin("First");
      const second = await begin("Second");
      expect(second!.generation).toBeGreaterThan(first!.generation);
      const a = chunk("Expenses are filed weekly");
      const b = chunk("Expenses are filed daily");
      await store.stageVectors("acme", id, MODEL, [
        { textHash: a.textHash, vector: [0, 1, 0] },
        { textHash: b.textHash, vector: [0, 0, 1] },
      ]);
      await expect(
        store.commit("acme", id, {
          contentHash: "a",
          chunks: [a],
          now: 4_000,
          generation: first!.generation,
        }),
      ).rejects.toBeInstanceOf(SupersededIngestError);
      expect((await search(ADA, "expenses")).map((h) => h.chunk.text)).toEqual([
        "Expenses are filed monthly",
      ]);
      // The superseded commit pruned nothing: the newer one's staged vector is still there.
      expect(
        await store.commit("acme", id, {
          contentHash: "b",
          chunks: [b],
          now: 5_000,
          generation: second!.generation,
        }),
      ).toMatchObject({ title: "Second", status: "ready", contentHash: "b" });
      expect((await search(ADA, "expenses")).map((h) => h.chunk.text)).toEqual(["Expenses are filed daily"]);
    });

    it("keeps a commit's note (a truncated document) as the ready source's error", async () => {
      const source = await store.begin("acme", {
        title: "Long",
        kind: "text",
        origin: "text",
        authSubjects: ["team:finance"],
        model: MODEL,
        now: 1,
      });
      const c = chunk("The first pages only");
      await store.stageVectors("acme", source!.id, MODEL, [{ textHash: c.textHash, vector: [1, 0, 0] }]);
      const note = "only the first 1000 pages were read";
      expect(
        await store.commit("acme", source!.id, {
          contentHash: "h",
          chunks: [c],
          now: 2,
          generation: 1,
          note,
        }),
      ).toMatchObject({ status: "ready", error: note });
      expect(await store.get("acme", source!.id)).toMatchObject({ status: "ready", error: note });
    });

    it("refuses a source with no subject, an empty title or a control character in a subject", async () => {
      for (const bad of [
        { authSubjects: [] as string[], title: "T" },
        { authSubjects: ["a"], title: " " },
        { authSubjects: ["a\u0000b"], title: "T" },
      ]) {
        await expect(
          store.begin("acme", { ...bad, kind: "text", origin: "text", model: MODEL, now: 1 }),
        ).rejects.toThrow(RangeError);
      }
      expect((await store.list("acme", { limit: 10 })).sources).toEqual([]);
    });

    it("lists a tenant's sources newest first in pages, and removes one with its chunks", async () => {
      const ids: string[] = [];
      for (let n = 0; n < 3; n++) {
        const source = await store.begin("acme", {
          title: `S${n}`,
          kind: "url",
          origin: `https://example.com/${n}`,
          authSubjects: ["team:finance"],
          model: MODEL,
          now: 1_000 + n,
        });
        ids.push(source!.id);
      }
      const first = await store.list("acme", { limit: 2 });
      expect(first.sources.map((s) => s.title)).toEqual(["S2", "S1"]);
      const second = await store.list("acme", { limit: 2, after: first.next });
      expect(second).toEqual({
        sources: [expect.objectContaining({ title: "S0", kind: "url", status: "indexing", chunkCount: 0 })],
      });
      // A reader's page is cut after the filter: Bob's newer sources do not hide Ada's.
      for (let n = 0; n < 3; n++) {
        await store.begin("acme", {
          title: `Bob${n}`,
          kind: "text",
          origin: "text",
          authSubjects: ["principal:bob"],
          model: MODEL,
          now: 2_000 + n,
        });
      }
      const adas = await store.list("acme", { limit: 2, subjects: ADA.subjects });
      expect(adas.sources.map((s) => s.title)).toEqual(["S2", "S1"]);
      expect(
        (await store.list("acme", { limit: 2, after: adas.next, subjects: ADA.subjects })).sources.map(
          (s) => s.title,
        ),
      ).toEqual(["S0"]);
      expect((await store.list("acme", { limit: 10, subjects: BOB.subjects })).sources).toHaveLength(3);
      expect((await store.list("acme", { limit: 10 })).sources).toHaveLength(6);
      const id = await index(
        "acme",
        ["team:finance"],
        [{ chunk: chunk("Parking permits renew in May"), vector: [1, 0, 0] }],
      );
      const [hit] = await search(ADA, "parking");
      expect(await store.remove("acme", id)).toBe(true);
      expect(await store.remove("acme", id)).toBe(false);
      expect(await search(ADA, "parking", [1, 0, 0])).toEqual([]);
      expect(await store.readChunk(ADA, hit!.chunk.id)).toBeUndefined();
      expect(await store.get("acme", id)).toBeUndefined();
    });

    it("refuses a new source past the tenant's cap, yet re-indexes one and takes a new one once one is removed", async () => {
      const add = (tenantId: string, n: number, id?: string) =>
        store.begin(tenantId, {
          ...(id ? { id } : {}),
          title: `S${n}`,
          kind: "text",
          origin: "text",
          authSubjects: ["tenant"],
          model: MODEL,
          now: n,
        });
      let last = "";
      for (let n = 0; n < KNOWLEDGE_LIMITS.sourcesPerTenant; n++) last = (await add("acme", n))!.id;
      await expect(add("acme", -1)).rejects.toThrow(/at most|the most it may/);
      expect(await add("acme", -1, last)).toMatchObject({ id: last, title: "S-1" });
      expect(await add("globex", 0)).toBeDefined();
      expect(await store.remove("acme", last)).toBe(true);
      expect(await add("acme", -2)).toBeDefined();
    });

    it("keeps sources, chunks, vectors and staged vectors across a reopen", async () => {
      if (!fixture.reopen) return;
      const id = await index(
        "acme",
        ["team:finance"],
        [{ chunk: chunk("Holiday requests go to the team lead", 2, ["People"]), vector: [0.6, 0.8, 0] }],
      );
      const staged = chunk("staged but not committed");
      await store.stageVectors("acme", id, MODEL, [{ textHash: staged.textHash, vector: [0, 0, 1] }]);
      store = await fixture.reopen();
      const [hit] = await search(ADA, "holiday", [0.6, 0.8, 0]);
      expect(hit).toMatchObject({
        chunk: { text: "Holiday requests go to the team lead", location: { page: 2, headings: ["People"] } },
      });
      const known = await store.knownVectors("acme", id, MODEL);
      expect(known.get(staged.textHash)).toEqual([0, 0, 1]);
      expect(
        known.get(sha256Hex("Holiday requests go to the team lead"))?.map((v) => Math.round(v * 10) / 10),
      ).toEqual([0.6, 0.8, 0]);
    });
  });
}
