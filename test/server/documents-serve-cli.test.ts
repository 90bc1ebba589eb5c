/**
 * @module read_document end to end, as a user reaches it: `toolreg serve` with no configuration on its SQLite
 * file, keys made by `toolreg keys create`. Ada uploads file_generate's PDF over the API and adds a DOCX with
 * `toolreg attachments add`; read_document reads them over HTTP in her run, pages marked and the text fenced
 * as hers; Bob, in the same tenant, reads nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { runToolreg } from "../cli/run-cli.js";
import { contractDocx, generatedReportPdf } from "../support/documents.js";
import { createKey, invokeAs, type ServeProcess, startServe } from "../support/serve-process.js";

let served: ServeProcess | undefined;
let cwd: string;
afterEach(() => {
  served?.child.kill("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
});

interface Envelope {
  ok: boolean;
  content?: string;
  data?: { title?: string; pageCount?: number; pagesRead?: { from: number; to: number } };
  provenance?: { source: string; trusted: boolean };
  error?: { code: string; details?: { reason?: string } };
}

it("reads an uploaded PDF and a DOCX added from the CLI for their uploader only", {
  timeout: 90_000,
}, async () => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-documents-serve-"));
  served = await startServe(cwd);
  const { url } = served;
  const ada = await createKey(cwd, "acme", "ada");
  const bob = await createKey(cwd, "acme", "bob");
  const invoke = async (key: string, tool: string, input: unknown) =>
    (await invokeAs<Envelope>(url, key, "run-1", tool, input)).envelope;

  const form = new FormData();
  form.set("file", new Blob([await generatedReportPdf()], { type: "application/pdf" }), "report.pdf");
  form.set("runId", "run-1");
  const uploaded = await fetch(`${url}/api/v1/attachments`, {
    method: "POST",
    headers: { authorization: `Bearer ${ada}` },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const pdfId = ((await uploaded.json()) as { id: string }).id;

  const pdf = await invoke(ada, "read_document", { attachmentId: pdfId, pages: { from: 2, to: 3 } });
  expect(pdf).toMatchObject({
    ok: true,
    data: { pageCount: 3, pagesRead: { from: 2, to: 3 } },
    provenance: { source: `attachment ${pdfId} (report.pdf) uploaded by ada`, trusted: false },
  });
  expect(pdf.content).toMatch(/^<untrusted-content id="[0-9a-f]{16}" source="attachment att_/);
  expect(pdf.content).toContain("[page 2 of 3]");
  expect(pdf.content).not.toContain("[page 1 of 3]");

  writeFileSync(join(cwd, "contract.docx"), await contractDocx());
  const added = await runToolreg(
    ["--tenant", "acme", "--principal", "ada", "attachments", "add", "contract.docx"],
    cwd,
  );
  expect(added.code, added.stderr).toBe(0);
  const docxId = /att_[0-9a-f]{24}/.exec(added.stdout)?.[0];
  const docx = await invoke(ada, "read_document", { attachmentId: docxId });
  expect(docx).toMatchObject({ ok: true, data: { title: "Supply Contract" } });
  expect(docx.content).toContain("| Widget \\| large | 12 EUR |");

  for (const id of [pdfId, docxId]) {
    expect((await invoke(bob, "read_document", { attachmentId: id })).error).toMatchObject({
      code: "invalid_input",
      details: { reason: "not_found" },
    });
  }
});
