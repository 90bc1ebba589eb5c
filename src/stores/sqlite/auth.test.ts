/** @module The SQLite auth store against the port's conformance suite, each test on a fresh file. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { runAuthStoreConformance } from "../../ports/auth-store.conformance.js";
import { openSqliteAuthStore } from "./index.js";

runAuthStoreConformance("sqlite", async (options) => {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-auth-"));
  const path = join(directory, "server.db");
  const remove = () => rmSync(directory, { recursive: true, force: true });
  let store: ReturnType<typeof openSqliteAuthStore>;
  try {
    store = openSqliteAuthStore(path, options);
  } catch (error) {
    remove();
    throw error;
  }
  return {
    store,
    open: async () => openSqliteAuthStore(path, options),
    rows: async (table) => {
      const reader = new Database(path, { readonly: true });
      try {
        return reader.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
      } finally {
        reader.close();
      }
    },
    cleanup: async () => {
      await store.close();
      remove();
    },
  };
});
