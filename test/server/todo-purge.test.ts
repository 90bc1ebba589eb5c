/**
 * The server's housekeeping purges the todo lists of runs long over: a list last written past the retention
 * goes at the sweep the server starts with, a recent one stays.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { TODO_RETENTION_MS, type TodoKey } from "../../src/ports/todo-store.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import { openRegistryServer } from "../../src/server/registry-server.js";
import { openSqliteDeployment } from "../../src/stores/sqlite/index.js";

const dir = mkdtempSync(join(tmpdir(), "toolreg-todo-purge-"));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("purges the lists last written before the retention when the server sweeps, and keeps the others", async () => {
  const path = join(dir, "toolreg.db");
  const writer = openSqliteDeployment(path);
  const key = (runId: string): TodoKey => ({ tenantId: "acme", principalId: "ada", runId });
  const items = [{ id: "1", content: "Read the invoice", status: "pending" as const }];
  await writer.todos.write(key("old"), { items, now: Date.now() - TODO_RETENTION_MS - 60_000 });
  await writer.todos.write(key("recent"), { items, now: Date.now() - TODO_RETENTION_MS + 60_000 });
  await writer.close();

  const server = openRegistryServer({ registry: new ToolRegistry([]), store: path, logger: silentLogger });
  const reader = openSqliteDeployment(path);
  try {
    const { todos } = reader;
    const until = Date.now() + 5_000;
    while ((await todos.read(key("old"))).revision !== 0 && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await todos.read(key("old"))).toEqual({ items: [], revision: 0 });
    expect(await todos.read(key("recent"))).toEqual({ items, revision: 1 });
  } finally {
    await reader.close();
    await server.close();
  }
});
