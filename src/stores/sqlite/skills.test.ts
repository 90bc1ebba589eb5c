/** @module The SQLite skill store against the skill store conformance suite, on a file two connections share. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { runSkillStoreConformance } from "../../../test/conformance/skill-store.js";
import { openDatabase } from "./database.js";
import { createSqliteSkillStore } from "./skills.js";

runSkillStoreConformance("sqlite", async () => {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-skills-"));
  const path = join(directory, "stores.db");
  const opened: Database.Database[] = [openDatabase(path)];
  const open = () => {
    const database = openDatabase(path);
    opened.push(database);
    return createSqliteSkillStore(database);
  };
  return {
    store: createSqliteSkillStore(opened[0]!),
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
