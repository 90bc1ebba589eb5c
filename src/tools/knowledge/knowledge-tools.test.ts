/**
 * @module The knowledge tools through a real seam over the in-process knowledge base: subjects from the
 * context (never input), citations kept as provenance, fencing, an honest empty answer, a citation refused
 * once its source's readers change, and hostile input refused.
 */
import { describe, expect, it } from "vitest";
import { HashedBagOfWordsEmbedding } from "../../catalog/search/embedding-provider.js";
import { textDocument } from "../../knowledge/documents.js";
import { ingest } from "../../knowledge/ingest.js";
import type { KnowledgeEmbedder } from "../../ports/knowledge-base.js";
import { createMemoryKnowledgeBase } from "../../stores/memory/knowledge.js";
import { createTestHarness } from "../../test/test-harness.js";
import { knowledgeTools } from "./index.js";

const hashed = new HashedBagOfWordsEmbedding(64);
const embedder: KnowledgeEmbedder = { model: "hashed-64", embed: (texts) => hashed.embed(texts) };

async function harness() {
  const knowledge = createMemoryKnowledgeBase();
  const add = (authSubjects: string[], markdown: string, title: string, sourceId?: string) =>
    ingest(
      { knowledge, embedder },
      {
        tenantId: "acme",
        title,
        kind: "text",
        origin: "text",
        authSubjects,
        sections: textDocument(markdown).sections,
        ...(sourceId ? { sourceId } : {}),
      },
    );
  return { knowledge, add, ...createTestHarness(knowledgeTools({ knowledge, knowledgeEmbedder: embedder })) };
}

const ada = { tenantId: "acme", principalId: "ada", scopes: ["finance"] };
const bob = { tenantId: "acme", principalId: "bob" };

describe("knowledge toolkit through the seam", () => {
  it("finds a passage with its citation kept as provenance, fenced as untrusted", async () => {
    const { seam, context, add } = await harness();
    const { source } = await add(
      ["scope:finance"],
      "# Expenses\n## Travel\nTrain tickets are refunded within ten days.",
      "Finance policy",
    );
    const found = await seam.call(context(ada), "search_knowledge", {
      query: "how fast are train tickets refunded",
    });
    expect(found).toMatchObject({
      ok: true,
      data: {
        ranking: "hybrid",
        hits: [
          {
            sourceId: source.id,
            title: "Finance policy",
            location: { headings: ["Expenses", "Travel"] },
            text: "## Travel\nTrain tickets are refunded within ten days.",
          },
        ],
      },
      provenance: {
        trusted: false,
        citations: [
          {
            sourceId: source.id,
            chunkId: expect.stringMatching(/^kc_[0-9a-f]{20}$/),
            title: "Finance policy",
            location: { headings: ["Expenses", "Travel"] },
            snippet: "## Travel\nTrain tickets are refunded within ten days.",
          },
        ],
      },
    });
    const content = found.ok ? found.content : "";
    expect(content).toMatch(
      /^<untrusted-content id="[0-9a-f]{16}" source="search_knowledge: documents added by people">/,
    );
    expect(content).toContain("Finance policy › Expenses › Travel");
  });

  it("searches only what the caller's context lets it read: another principal finds nothing, input cannot widen it", async () => {
    const { seam, context, add } = await harness();
    await add(["scope:finance"], "Salary bands are reviewed in March.", "Pay");
    expect(await seam.call(context(bob), "search_knowledge", { query: "salary bands" })).toEqual({
      ok: true,
      content: 'Nothing in the knowledge base you may read matches "salary bands".',
      data: { query: "salary bands", ranking: "hybrid", hits: [] },
    });
    expect(
      await seam.call(context(bob), "search_knowledge", { query: "salary", subjects: ["scope:finance"] }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    expect(
      await seam.call(context({ ...ada, tenantId: "globex" }), "search_knowledge", { query: "salary" }),
    ).toMatchObject({
      ok: true,
      data: { hits: [] },
    });
  });

  it("re-reads a cited passage, and refuses it once the source's readers no longer include the caller", async () => {
    const { seam, context, add } = await harness();
    const { source } = await add(["principal:ada"], "The vault code rotates every Friday.", "Security");
    const found = await seam.call(context(ada), "search_knowledge", { query: "vault code" });
    const chunkId = found.ok ? (found.data as { hits: { chunkId: string }[] }).hits[0]!.chunkId : "";
    expect(await seam.call(context(ada), "read_knowledge", { chunkId })).toMatchObject({
      ok: true,
      data: { chunkId, sourceId: source.id, text: "The vault code rotates every Friday." },
      provenance: { trusted: false, citations: [{ chunkId }] },
    });
    expect(await seam.call(context(bob), "read_knowledge", { chunkId })).toMatchObject({
      ok: false,
      error: { code: "precondition_failed", message: expect.stringContaining("search_knowledge again") },
    });
    await add(["principal:bob"], "The vault code rotates every Friday.", "Security", source.id);
    expect(await seam.call(context(ada), "read_knowledge", { chunkId })).toMatchObject({
      ok: false,
      error: { code: "precondition_failed" },
    });
    expect(await seam.call(context(bob), "read_knowledge", { chunkId })).toMatchObject({ ok: true });
  });

  it("refuses hostile or oversized input before the store is reached", async () => {
    const { seam, context } = await harness();
    for (const [tool, input] of [
      ["search_knowledge", { query: "" }],
      ["search_knowledge", { query: "x".repeat(501) }],
      ["search_knowledge", { query: "x", limit: 21 }],
      ["search_knowledge", { query: "x", limit: 0 }],
      ["read_knowledge", { chunkId: "../etc/passwd" }],
      ["read_knowledge", { chunkId: "kc_' OR 1=1 --" }],
    ] as const) {
      expect(await seam.call(context(ada), tool, input)).toMatchObject({
        ok: false,
        error: { code: "invalid_input" },
      });
    }
  });
});
