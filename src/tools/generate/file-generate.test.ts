import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { beforeEach, describe, expect, it } from "vitest";
import { createFileArtifactStore } from "../../artifacts/file-artifact-store.js";
import { createTestHarness } from "../../test/test-harness.js";
import { generateTools } from "./index.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "toolreg-artifacts-"));
});

function harness() {
  return createTestHarness(generateTools({ artifacts: createFileArtifactStore(root) }));
}

const stored = (tenant: string, id: string, name: string) =>
  readFileSync(join(root, encodeURIComponent(tenant), id, name));

describe("file_generate", () => {
  it("exists only when an artifact store is wired", () => {
    expect(generateTools({})).toEqual([]);
    expect(generateTools({ artifacts: createFileArtifactStore(root) }).map((tool) => tool.name)).toEqual([
      "file_generate",
    ]);
  });

  it("writes RFC 4180 CSV, content-addressed per tenant, the same bytes for the same input", async () => {
    const { seam, context } = harness();
    const request = {
      format: "csv",
      name: "prices",
      columns: ["item", "note", "price"],
      rows: [
        ["tea", 'says "hi", twice', 3.5],
        ["cake", "line\nbreak", null],
      ],
    };
    const first = await seam.call(context(), "file_generate", request);
    expect(first).toMatchObject({ ok: true, data: { name: "prices.csv", mediaType: "text/csv" } });
    const data = (first.ok && first.data) as { id: string; uri: string; size: number };
    const bytes = stored("t1", data.id, "prices.csv");
    expect(bytes.toString()).toBe(
      'item,note,price\r\ntea,"says ""hi"", twice",3.5\r\ncake,"line\nbreak",\r\n',
    );
    expect(data.id).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(data.uri).toBe(`artifact://${data.id}/prices.csv`);
    expect(await seam.call(context(), "file_generate", request)).toEqual(first);
    const other = await seam.call(context({ tenantId: "t2" }), "file_generate", request);
    expect(other.ok && (other.data as { id: string }).id).toBe(data.id);
    expect(stored("t2", data.id, "prices.csv").equals(bytes)).toBe(true);
  });

  it("refuses ragged rows, missing fields and names that are paths", async () => {
    const { seam, context } = harness();
    expect(
      await seam.call(context(), "file_generate", {
        format: "csv",
        name: "x",
        columns: ["a", "b"],
        rows: [["1"]],
      }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: "row 1 has 1 cells but there are 2 columns" },
    });
    expect(await seam.call(context(), "file_generate", { format: "pdf", name: "x" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("text: is required for format pdf") },
    });
    for (const name of ["../escape", "a/b", ".hidden", "x".repeat(200)]) {
      expect(
        await seam.call(context(), "file_generate", { format: "markdown", name, text: "t" }),
      ).toMatchObject({
        ok: false,
        error: { code: "invalid_input" },
      });
    }
  });

  it("normalises Markdown line endings", async () => {
    const { seam, context } = harness();
    const result = await seam.call(context(), "file_generate", {
      format: "markdown",
      name: "notes.md",
      text: "# A\r\nb\r\n\r\n\r\n",
    });
    const data = (result.ok && result.data) as { id: string };
    expect(stored("t1", data.id, "notes.md").toString()).toBe("# A\nb\n");
  });

  it("renders a PDF deterministically, paginates long text and reports characters it cannot draw", async () => {
    const { seam, context } = harness();
    const text = Array.from({ length: 150 }, (_, i) => `Paragraph ${i}: ${"word ".repeat(30)}`).join("\n\n");
    const request = { format: "pdf", name: "report", title: "Quarterly report ✓", text };
    const first = await seam.call(context(), "file_generate", request);
    expect(await seam.call(context(), "file_generate", request)).toEqual(first);
    const data = (first.ok && first.data) as { id: string; pages: number; replacedCharacters: number };
    expect(data.replacedCharacters).toBe(1);
    const pdf = await PDFDocument.load(stored("t1", data.id, "report.pdf"));
    expect(pdf.getPageCount()).toBe(data.pages);
    expect(data.pages).toBeGreaterThan(3);
    expect(first.ok && first.content).toContain('printed as "?"');
  });
});

describe("file artifact store", () => {
  it("reads back what it wrote, and nothing for another tenant or a path-like name", async () => {
    const store = createFileArtifactStore(root);
    const artifact = await store.put({
      tenantId: "acme/eu",
      name: "a.txt",
      mediaType: "text/plain",
      bytes: Buffer.from("hi"),
    });
    expect(
      Buffer.from(
        (await store.get({ tenantId: "acme/eu", id: artifact.id, name: "a.txt" }))?.bytes ?? [],
      ).toString(),
    ).toBe("hi");
    expect(await store.get({ tenantId: "other", id: artifact.id, name: "a.txt" })).toBeUndefined();
    expect(await store.get({ tenantId: "acme/eu", id: artifact.id, name: "../a.txt" })).toBeUndefined();
    await expect(
      store.put({ tenantId: "t", name: "../x", mediaType: "text/plain", bytes: Buffer.from("") }),
    ).rejects.toThrow();
  });
});
