/** @module The SQLite knowledge base against the conformance suite, on a real file reopened as a restart would. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runKnowledgeBaseConformance } from "../../ports/knowledge-base.conformance.js";
import { openDatabase } from "./database.js";
import { createSqliteKnowledgeBase } from "./knowledge.js";

runKnowledgeBaseConformance("sqlite", async () => {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-knowledge-"));
  const path = join(directory, "stores.db");
  let database = openDatabase(path);
  return {
    store: createSqliteKnowledgeBase(database),
    reopen: async () => {
      database.close();
      database = openDatabase(path);
      return createSqliteKnowledgeBase(database);
    },
    cleanup: async () => {
      database.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
