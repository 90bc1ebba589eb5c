/** @module The SQLite memory store against the conformance suite, on a real file reopened as a restart would. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONFORMANCE_MAX_MEMORIES, runMemoryStoreConformance } from "../../ports/memory-store.conformance.js";
import { openDatabase } from "./database.js";
import { createSqliteMemoryStore } from "./memories.js";

runMemoryStoreConformance("sqlite", async () => {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-memories-"));
  const path = join(directory, "stores.db");
  let database = openDatabase(path);
  const open = () => createSqliteMemoryStore(database, { maxMemories: CONFORMANCE_MAX_MEMORIES });
  return {
    store: open(),
    reopen: async () => {
      database.close();
      database = openDatabase(path);
      return open();
    },
    cleanup: async () => {
      database.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
