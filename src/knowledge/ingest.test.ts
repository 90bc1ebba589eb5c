/**
 * @module Ingestion against the real SQLite knowledge base: a markdown text found with its heading path, a
 * re-index that embeds only changed chunks, an embedder failing half-way (the local OpenAI-compatible fake)
 * leaving the old chunks searchable and the next run resuming, and a URL read through the egress client.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAIEmbeddings, TEST_API_KEY } from "../../test/support/openai-embeddings-server.js";
import { HashedBagOfWordsEmbedding } from "../catalog/search/embedding-provider.js";
import { createEgressClient } from "../egress/egress-client.js";
import { openAICompatibleEmbeddings } from "../embeddings/openai-compatible.js";
import { type KnowledgeEmbedder, SupersededIngestError } from "../ports/knowledge-base.js";
import { openDatabase } from "../stores/sqlite/database.js";
import { createSqliteKnowledgeBase } from "../stores/sqlite/knowledge.js";
import { textDocument, urlDocument } from "./documents.js";
import { IngestError, ingest } from "./ingest.js";

const hashed = new HashedBagOfWordsEmbedding(64);
const local: KnowledgeEmbedder = { model: "hashed-64", embed: (texts) => hashed.embed(texts) };
const reader = { tenantId: "acme", subjects: ["team:ops"] };

function sqliteKnowledge() {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-ingest-"));
  const database = openDatabase(join(directory, "stores.db"));
  return {
    knowledge: createSqliteKnowledgeBase(database),
    close: () => {
      database.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

const handbook = (refunds: string) =>
  textDocument(
    [
      "# Handbook",
      "Welcome to the operations handbook.",
      "## Shipping",
      "Parcels leave the warehouse every Monday and Thursday.",
      "## Refunds",
      refunds,
      "## Holidays",
      "Holiday requests go to the team lead two weeks ahead.",
    ].join("\n"),
  ).sections;

describe("ingest", () => {
  it("indexes a markdown text into chunks found with their heading path", async () => {
    const { knowledge, close } = sqliteKnowledge();
    try {
      const result = await ingest(
        { knowledge, embedder: local },
        {
          tenantId: "acme",
          title: "Ops handbook",
          kind: "text",
          origin: "text",
          authSubjects: ["team:ops"],
          sections: handbook("Refunds are paid within fourteen days."),
        },
      );
      expect(result).toMatchObject({
        chunks: 4,
        embedded: 4,
        source: { status: "ready", chunkCount: 4, model: "hashed-64" },
      });
      const query = "when are refunds paid";
      const [hit] = await knowledge.search(reader, {
        text: query,
        vector: { model: local.model, values: hashed.embed([query])[0]! },
        limit: 3,
      });
      expect(hit).toMatchObject({
        chunk: {
          text: "## Refunds\nRefunds are paid within fourteen days.",
          location: { headings: ["Handbook", "Refunds"] },
        },
        source: { title: "Ops handbook" },
      });
    } finally {
      close();
    }
  });

  it("re-embeds only the chunks whose text changed, and nothing when none did", async () => {
    const { knowledge, close } = sqliteKnowledge();
    try {
      const request = {
        tenantId: "acme",
        title: "Ops",
        kind: "text" as const,
        origin: "text",
        authSubjects: ["team:ops"],
      };
      const first = await ingest(
        { knowledge, embedder: local },
        { ...request, sections: handbook("Refunds take 14 days.") },
      );
      const second = await ingest(
        { knowledge, embedder: local },
        { ...request, sourceId: first.source.id, sections: handbook("Refunds now take 7 days.") },
      );
      expect(second).toMatchObject({
        chunks: 4,
        embedded: 1,
        source: { id: first.source.id, status: "ready" },
      });
      const third = await ingest(
        { knowledge, embedder: local },
        { ...request, sourceId: first.source.id, sections: handbook("Refunds now take 7 days.") },
      );
      expect(third.embedded).toBe(0);
      expect((await knowledge.search(reader, { text: "14", limit: 3 })).length).toBe(0);
      expect((await knowledge.search(reader, { text: "7 days", limit: 3 }))[0]?.chunk.text).toBe(
        "## Refunds\nRefunds now take 7 days.",
      );
    } finally {
      close();
    }
  });

  it("resumes an ingestion the embedder broke off: old chunks searchable meanwhile, no batch embedded twice", async () => {
    const fake = await startFakeOpenAIEmbeddings();
    const { knowledge, close } = sqliteKnowledge();
    try {
      const provider = openAICompatibleEmbeddings({
        baseUrl: fake.baseUrl,
        model: "small",
        apiKey: TEST_API_KEY,
        maxRetries: 0,
      });
      const embedder: KnowledgeEmbedder = { model: "openai:small", embed: (texts) => provider.embed(texts) };
      const request = {
        tenantId: "acme",
        title: "Ops",
        kind: "text" as const,
        origin: "text",
        authSubjects: ["team:ops"],
      };
      const first = await ingest(
        { knowledge, embedder, batchSize: 2 },
        { ...request, sections: textDocument("Old refund rule: cash only.").sections },
      );
      const many = textDocument(
        Array.from(
          { length: 6 },
          (_, n) => `## Part ${n}\nSection ${n} says shipping rule number ${n}.`,
        ).join("\n"),
      ).sections;
      const sent = fake.requests.length;
      fake.inject(
        { pass: true },
        { status: 400, body: { error: { message: "bad batch", type: "invalid_request_error" } } },
      );
      const broken = ingest(
        { knowledge, embedder, batchSize: 2 },
        { ...request, sourceId: first.source.id, sections: many },
      );
      await expect(broken).rejects.toBeInstanceOf(IngestError);
      await expect(broken).rejects.toThrow(/after 2 of 6 new chunks.*resume/);
      expect(fake.requests.length - sent).toBe(2);
      expect(await knowledge.get("acme", first.source.id)).toMatchObject({
        status: "indexing",
        chunkCount: 1,
        error: expect.stringContaining("after 2 of 6"),
      });
      expect((await knowledge.search(reader, { text: "cash", limit: 3 }))[0]?.chunk.text).toBe(
        "Old refund rule: cash only.",
      );
      const resumed = await ingest(
        { knowledge, embedder, batchSize: 2 },
        { ...request, sourceId: first.source.id, sections: many },
      );
      expect(resumed).toMatchObject({ chunks: 6, embedded: 4, source: { status: "ready", chunkCount: 6 } });
      expect(resumed.source.error).toBeUndefined();
      // Four texts in two batches of two: the two staged before the failure were not sent again.
      const resumedInputs = fake.requests.slice(sent + 2).flatMap((r) => r.body.input as string[]);
      expect(resumedInputs).toHaveLength(4);
      expect(resumedInputs.some((text) => text.includes("number 0") || text.includes("number 1"))).toBe(
        false,
      );
      expect(await knowledge.search(reader, { text: "cash", limit: 3 })).toEqual([]);
      for (const batch of fake.requests.slice(sent))
        expect((batch.body.input as string[]).length).toBeLessThanOrEqual(2);
    } finally {
      close();
      await fake.close();
    }
  });
});

describe("urlDocument", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === "/guide") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end(
          "<html><head><title>Travel guide</title></head><body><h1>Travel</h1><p>Book trains for trips under four hours.</p><h2>Hotels</h2><p>Stay near the office.</p></body></html>",
        );
      } else if (request.url === "/file.bin") {
        response.writeHead(200, { "content-type": "application/octet-stream" });
        response.end(Buffer.from([0, 1, 2]));
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reads a page through the egress client as sections under its headings, with its title", async () => {
    const egress = createEgressClient({ policy: { allowAddressClasses: ["loopback"] } });
    try {
      const page = await urlDocument(egress, `${base}/guide`);
      expect(page.title).toBe("Travel guide");
      expect(page.sections).toEqual([
        // The extractor reads the article: its first heading is the page's title, not a section's.
        { text: "Book trains for trips under four hours.", headings: [] },
        { text: "## Hotels\n\nStay near the office.", headings: ["Hotels"] },
      ]);
      await expect(urlDocument(egress, `${base}/missing`)).rejects.toThrow(/HTTP 404/);
      await expect(urlDocument(egress, `${base}/file.bin`)).rejects.toThrow(
        /application\/octet-stream cannot be read/,
      );
    } finally {
      await egress.close();
    }
  });

  it("refuses a private address under the default policy (no SSRF through a knowledge source)", async () => {
    const egress = createEgressClient();
    try {
      await expect(urlDocument(egress, `${base}/guide`)).rejects.toThrow(/loopback/);
    } finally {
      await egress.close();
    }
  });

  it("raises a failure past the embedder (the source removed mid-run) as an IngestError, never a bare error", async () => {
    const { knowledge, close } = sqliteKnowledge();
    try {
      const first = await ingest(
        { knowledge, embedder: local },
        {
          tenantId: "acme",
          title: "Ops",
          kind: "text",
          origin: "text",
          authSubjects: ["team:ops"],
          sections: handbook("Refunds take ten days."),
        },
      );
      const removing: KnowledgeEmbedder = {
        model: local.model,
        embed: async (texts) => {
          await knowledge.remove("acme", first.source.id);
          return hashed.embed(texts);
        },
      };
      const failure = await ingest(
        { knowledge, embedder: removing },
        {
          tenantId: "acme",
          sourceId: first.source.id,
          title: "Ops",
          kind: "text",
          origin: "text",
          authSubjects: ["team:ops"],
          sections: handbook("Refunds take five days."),
        },
      ).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(IngestError);
      expect((failure as IngestError).message).toMatch(
        /keeping the vectors of new chunks failed: no knowledge source/,
      );
    } finally {
      close();
    }
  });

  it("refuses to commit a run a later run of the same source superseded, and the later one stands", async () => {
    const { knowledge, close } = sqliteKnowledge();
    try {
      const first = await ingest(
        { knowledge, embedder: local },
        {
          tenantId: "acme",
          title: "Ops",
          kind: "text",
          origin: "text",
          authSubjects: ["team:ops"],
          sections: handbook("Refunds take ten days."),
        },
      );
      const request = (refunds: string, title: string) => ({
        tenantId: "acme",
        sourceId: first.source.id,
        title,
        kind: "text" as const,
        origin: "text",
        authSubjects: ["team:ops"],
        sections: handbook(refunds),
      });
      // While the slow run embeds, another run of the source begins and commits.
      const overtaking: KnowledgeEmbedder = {
        model: local.model,
        embed: async (texts) => {
          await ingest({ knowledge, embedder: local }, request("Refunds take two days.", "Newer"));
          return hashed.embed(texts);
        },
      };
      await expect(
        ingest({ knowledge, embedder: overtaking }, request("Refunds take five days.", "Older")),
      ).rejects.toBeInstanceOf(SupersededIngestError);
      expect(await knowledge.get("acme", first.source.id)).toMatchObject({ title: "Newer", status: "ready" });
      const [hit] = await knowledge.search(reader, { text: "refunds", limit: 1 });
      expect(hit?.chunk.text).toContain("two days");
    } finally {
      close();
    }
  });
});
