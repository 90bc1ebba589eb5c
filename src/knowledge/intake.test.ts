/**
 * @module The intake on a real SQLite deployment: a PDF attachment read through the document extractor as
 * its uploader, indexed, and found with its page and heading; another person's attachment, a type nothing
 * reads and an empty text refused with nothing indexed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { headedPdf } from "../../test/support/documents.js";
import { HashedBagOfWordsEmbedding } from "../catalog/search/embedding-provider.js";
import { openSqliteDeployment } from "../stores/sqlite/index.js";
import { DOCUMENT_CAPS } from "./documents.js";
import { IngestError } from "./ingest.js";
import { createKnowledgeIntake } from "./intake.js";

const hashed = new HashedBagOfWordsEmbedding(64);

it("indexes a PDF attachment as its uploader and finds it with a page citation; refuses what it cannot read", async () => {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-intake-"));
  const stores = openSqliteDeployment(join(directory, "toolreg.db"));
  try {
    const intake = createKnowledgeIntake({
      knowledge: stores.knowledge,
      embedder: { model: "hashed-64", embed: (texts) => hashed.embed(texts) },
      attachments: stores.attachments,
    });
    const upload = async (name: string, mediaType: string, bytes: Uint8Array) => {
      const added = await stores.attachments.add(
        { tenantId: "acme", principalId: "ada" },
        { name, mediaType, bytes, now: Date.now() },
      );
      if (!added.added) throw new Error(added.reason);
      return added.attachment.id;
    };
    const pdf = await upload("agreement.pdf", "application/pdf", await headedPdf());
    const { source, embedded } = await intake.add("acme", {
      from: "attachment",
      attachmentId: pdf,
      principalId: "ada",
      runId: "run-1",
      authSubjects: ["principal:ada"],
    });
    expect(source).toMatchObject({
      title: "Supply Agreement 2026",
      kind: "attachment",
      origin: pdf,
      status: "ready",
    });
    expect(embedded).toBe(source.chunkCount);
    const [hit] = await stores.knowledge.search(
      { tenantId: "acme", subjects: ["principal:ada"] },
      { text: "where do goods ship from", limit: 3 },
    );
    expect(hit).toMatchObject({
      chunk: {
        text: expect.stringContaining("Goods ship from Lyon."),
        location: { page: 2, headings: ["Terms", "Delivery"] },
      },
      source: { id: source.id, title: "Supply Agreement 2026" },
    });

    // Bob cannot index Ada's file: it is not his to read.
    await expect(
      intake.add("acme", {
        from: "attachment",
        attachmentId: pdf,
        principalId: "bob",
        runId: "run-1",
        authSubjects: ["tenant"],
      }),
    ).rejects.toThrow(/no attachment .* that this caller may read/);
    const csv = await upload("totals.csv", "text/csv", new TextEncoder().encode("a,b\n1,2\n"));
    await expect(
      intake.add("acme", {
        from: "attachment",
        attachmentId: csv,
        principalId: "ada",
        runId: "run-1",
        authSubjects: ["tenant"],
      }),
    ).rejects.toThrow(/text\/csv cannot be read/);
    await expect(intake.add("acme", { from: "text", text: "   ", authSubjects: ["tenant"] })).rejects.toThrow(
      /empty/,
    );
    expect((await stores.knowledge.list("acme", { limit: 10 })).sources.map((s) => s.id)).toEqual([
      source.id,
    ]);
  } finally {
    await stores.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

it("keeps a truncated document's cut as the source's error, and stops embedding once the caller's signal aborts", async () => {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-intake-"));
  const stores = openSqliteDeployment(join(directory, "toolreg.db"));
  try {
    const intake = createKnowledgeIntake({
      knowledge: stores.knowledge,
      embedder: { model: "hashed-64", embed: (texts) => hashed.embed(texts) },
    });
    const long = "Refund terms apply. ".repeat(Math.ceil(DOCUMENT_CAPS.maxChars / 20) + 100);
    const { source } = await intake.add("acme", {
      from: "file",
      name: "long.txt",
      mediaType: "text/plain",
      bytes: new TextEncoder().encode(long),
    });
    expect(source).toMatchObject({ status: "ready", error: expect.stringMatching(/longer: only its first/) });
    expect(source.authSubjects).toEqual(["tenant"]);

    const aborted = AbortSignal.abort(new Error("the client went away"));
    const failure = await intake
      .add("acme", { from: "text", text: "Parcels leave on Monday.", sourceId: source.id }, aborted)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IngestError);
    expect(await stores.knowledge.get("acme", source.id)).toMatchObject({
      status: "indexing",
      error: expect.stringContaining("the client went away"),
    });
  } finally {
    await stores.close();
    rmSync(directory, { recursive: true, force: true });
  }
}, 60_000);
