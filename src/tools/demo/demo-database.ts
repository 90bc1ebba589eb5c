/** @module Opens the demo SQLite file, creating its tables on first open and refusing any other database. */
import Database from "better-sqlite3";
import { DEMO_APPLICATION_ID, DEMO_SCHEMA, DEMO_SCHEMA_VERSION } from "./demo-schema.js";

/** How long a call waits for another connection's write lock before giving up. */
const BUSY_TIMEOUT_MS = 2_000;

/**
 * Opens (creating if need be) the demo database at `path` and returns the connection; the caller closes it.
 * A new or empty file gets the tables; a demo file is left as it is; any other database is refused untouched,
 * so a wrong path cannot add demo tables to someone's data. Each tenant's dataset is seeded on its first call.
 */
export function openDemoDatabase(path: string): Database.Database {
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma("foreign_keys = ON");
    if (!isDemoDatabase(db)) db.transaction(() => createTables(db)).immediate();
    return db;
  } catch (error) {
    db.close();
    throw new Error(`openDemoDatabase: cannot use "${path}": ${(error as Error).message}`, { cause: error });
  }
}

function isDemoDatabase(db: Database.Database): boolean {
  if (db.pragma("application_id", { simple: true }) !== DEMO_APPLICATION_ID) return false;
  const version = db.pragma("user_version", { simple: true });
  if (version !== DEMO_SCHEMA_VERSION) {
    throw new Error(`it holds demo schema version ${version}, not ${DEMO_SCHEMA_VERSION}`);
  }
  return true;
}

/** Runs inside the write lock, so of two processes opening a new file at once only one creates the tables. */
function createTables(db: Database.Database): void {
  if (isDemoDatabase(db)) return;
  const { tables } = db.prepare("SELECT count(*) AS tables FROM sqlite_schema").get() as { tables: number };
  if (tables > 0) throw new Error("it holds tables of another application, not a toolreg demo database");
  db.exec(DEMO_SCHEMA);
  db.pragma(`application_id = ${DEMO_APPLICATION_ID}`);
  db.pragma(`user_version = ${DEMO_SCHEMA_VERSION}`);
}
