/** @module The SQLite toolkit record store against the conformance suite, on a file two connections share. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { runToolkitRecordStoreConformance } from "../../../test/conformance/toolkit-record-store.js";
import { openDatabase } from "./database.js";
import { createSqliteToolkitRecordStore } from "./toolkit-records.js";

runToolkitRecordStoreConformance(
  "sqlite",
  async () => {
    const directory = mkdtempSync(join(tmpdir(), "toolreg-records-"));
    const path = join(directory, "stores.db");
    const opened: Database.Database[] = [openDatabase(path)];
    const open = () => {
      const database = openDatabase(path);
      opened.push(database);
      return createSqliteToolkitRecordStore(database);
    };
    return {
      store: createSqliteToolkitRecordStore(opened[0]!),
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
  },
  { durable: true },
);
