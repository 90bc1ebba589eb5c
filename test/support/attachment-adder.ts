/**
 * @module One process of the SQLite attachments' cross-process quota test: opens the shared state file, waits
 * for the go file, adds `count` attachments of 60 bytes each as fast as it can, and prints what came of them.
 * Usage: attachment-adder.ts STATE_FILE GO_FILE COUNT LABEL
 */
import { existsSync } from "node:fs";
import { createSqliteAttachmentStore } from "../../src/stores/sqlite/attachments.js";
import { openDatabase } from "../../src/stores/sqlite/database.js";

const [path, go, count, label] = process.argv.slice(2) as [string, string, string, string];
const database = openDatabase(path);
const store = createSqliteAttachmentStore(database, `${path}.attachments`, {
  caps: { bytes: 64, tenantBytes: 600 },
});
while (!existsSync(go)) await new Promise((resolve) => setTimeout(resolve, 5));
const report = { added: 0, quota: 0, errors: [] as string[] };
for (let index = 0; index < Number(count); index++) {
  try {
    const outcome = await store.add(
      { tenantId: "acme", principalId: label },
      {
        name: `${label}-${index}.txt`,
        mediaType: "text/plain",
        // Distinct bytes each time: every add writes a file of its own inside the write lock.
        bytes: new TextEncoder().encode(`${label} ${index} `.padEnd(60, "x")),
        now: Date.now(),
      },
    );
    if (outcome.added) report.added++;
    else if (outcome.reason === "quota") report.quota++;
  } catch (error) {
    report.errors.push((error as Error).message);
  }
}
database.close();
console.log(JSON.stringify(report));
