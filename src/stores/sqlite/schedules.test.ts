/** @module The SQLite schedule store against the schedule store conformance suite, on a file two connections share. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { runScheduleStoreConformance } from "../../../test/conformance/schedule-store.js";
import { openDatabase } from "./database.js";
import { createSqliteScheduleStore } from "./schedules.js";

runScheduleStoreConformance("sqlite", async (options) => {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-schedules-"));
  const path = join(directory, "stores.db");
  const opened: Database.Database[] = [openDatabase(path)];
  const open = () => {
    const database = openDatabase(path);
    opened.push(database);
    return createSqliteScheduleStore(database, options);
  };
  return {
    store: createSqliteScheduleStore(opened[0]!, options),
    reopen: async () => {
      opened[0]!.close();
      return open();
    },
    another: async () => open(),
    cleanup: async () => {
      for (const database of opened) if (database.open) database.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
