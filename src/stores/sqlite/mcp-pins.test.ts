/** @module The SQLite pin store against the conformance suite, on a file the CLI's commands share. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runPinStoreConformance } from "../../ports/pin-store.conformance.js";
import { openDatabase } from "./database.js";
import { createSqlitePinStore } from "./mcp-pins.js";

runPinStoreConformance("sqlite", async () => {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-pins-"));
  const path = join(directory, "stores.db");
  let database = openDatabase(path);
  return {
    store: createSqlitePinStore(database),
    reopen: async () => {
      database.close();
      database = openDatabase(path);
      return createSqlitePinStore(database);
    },
    cleanup: async () => {
      database.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
