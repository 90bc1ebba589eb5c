/**
 * @module The SQLite attachments' quota across processes: two processes adding at once on one state file keep
 * the tenant to its quota exactly, with no add failing on a lock, because each add takes the file's write lock
 * before it reads what the tenant keeps (an immediate transaction).
 */
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { runStepProcess, stateDirs } from "../../../test/support/cross-process-steps.js";
import { attachmentBlobPath } from "./attachments.js";
import { openDatabase } from "./database.js";

const stateDir = stateDirs("toolreg-attachments-processes-");

interface Report {
  added: number;
  quota: number;
  errors: string[];
}

it("lets two processes adding at once fill the tenant's quota exactly, and no further", {
  timeout: 60_000,
}, async () => {
  const dir = stateDir();
  const path = join(dir, "toolreg.db");
  const go = join(dir, "go");
  openDatabase(path).close();
  const adders = ["ada", "bob"].map((label) =>
    runStepProcess<Report>("attachment-adder.ts", [path, go, "10", label]),
  );
  // Both open the file before either adds.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  writeFileSync(go, "");
  const reports = await Promise.all(adders);
  expect(reports.flatMap((report) => report.errors)).toEqual([]);
  // 600 bytes of quota hold ten files of 60 bytes, whoever adds them.
  expect(reports.reduce((sum, report) => sum + report.added, 0)).toBe(10);
  expect(reports.reduce((sum, report) => sum + report.quota, 0)).toBe(10);
  expect(readdirSync(dirname(attachmentBlobPath(`${path}.attachments`, "acme", "x")))).toHaveLength(10);
});
