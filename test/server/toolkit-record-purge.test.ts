/**
 * The server's housekeeping purges toolkits' records past their retention: a record created before it goes at
 * the sweep the server starts with, however recently it was updated; a younger one stays.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { TOOLKIT_RECORD_RETENTION_MS, type ToolkitRecordKey } from "../../src/ports/toolkit-record-store.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import { openRegistryServer } from "../../src/server/registry-server.js";
import { openSqliteDeployment } from "../../src/stores/sqlite/index.js";

const dir = mkdtempSync(join(tmpdir(), "toolreg-record-purge-"));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("purges the records created before the retention when the server sweeps, and keeps the others", async () => {
  const path = join(dir, "toolreg.db");
  const writer = openSqliteDeployment(path);
  const key = (id: string): ToolkitRecordKey => ({
    toolkit: "email",
    tenantId: "acme",
    principalId: "ada",
    id,
  });
  const cutoff = Date.now() - TOOLKIT_RECORD_RETENTION_MS;
  await writer.records.add({ ...key("old"), data: { status: "sent" }, at: cutoff - 60_000 });
  await writer.records.update({ ...key("old"), data: { status: "bounced" }, version: 1, at: Date.now() });
  await writer.records.add({ ...key("recent"), data: { status: "sent" }, at: cutoff + 60_000 });
  await writer.close();

  const server = openRegistryServer({ registry: new ToolRegistry([]), store: path, logger: silentLogger });
  const reader = openSqliteDeployment(path);
  try {
    const { records } = reader;
    const until = Date.now() + 5_000;
    while ((await records.get(key("old"))) && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await records.get(key("old"))).toBeUndefined();
    expect(await records.get(key("recent"))).toMatchObject({ version: 1, data: { status: "sent" } });
  } finally {
    await reader.close();
    await server.close();
  }
});
