/** @module The SQLite todo store against the todo store conformance suite, on a file two connections share. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { runTodoStoreConformance } from "../../../test/conformance/todo-store.js";
import { openDatabase } from "./database.js";
import { createSqliteTodoStore } from "./todos.js";

runTodoStoreConformance(
  "sqlite",
  async () => {
    const directory = mkdtempSync(join(tmpdir(), "toolreg-todos-"));
    const path = join(directory, "stores.db");
    const opened: Database.Database[] = [openDatabase(path)];
    const open = () => {
      const database = openDatabase(path);
      opened.push(database);
      return createSqliteTodoStore(database);
    };
    return {
      store: createSqliteTodoStore(opened[0]!),
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
