/** @module toolreg/stores/sqlite — the store adapters on one SQLite file that several processes may share. */
import type Database from "better-sqlite3";
import type { PinStore } from "../../ports/pin-store.js";
import type { Stores } from "../../ports/stores.js";
import { createSqliteApprovalStore } from "./approvals.js";
import { createSqliteAuditStore, type SqliteAuditOptions, type SqliteAuditStore } from "./audit.js";
import { createSqliteConsentStore } from "./consents.js";
import { createSqliteCredentialStore } from "./credentials.js";
import { type OpenDatabaseOptions, openDatabase } from "./database.js";
import { createSqliteIdempotencyStore } from "./idempotency.js";
import { createSqlitePinStore } from "./mcp-pins.js";

export { MIGRATIONS, type Migration, migrate } from "./migrations.js";
export { parseSecretKey, SecretBoxError } from "../sql/secret-box.js";
export {
  createSqliteApprovalStore,
  createSqliteAuditStore,
  createSqliteConsentStore,
  createSqliteCredentialStore,
  createSqliteIdempotencyStore,
  createSqlitePinStore,
  type OpenDatabaseOptions,
  openDatabase,
  type SqliteAuditOptions,
  type SqliteAuditStore,
};

export interface SqliteStoresOptions extends OpenDatabaseOptions {
  audit?: SqliteAuditOptions;
}

/** The three stores, the pins of imported MCP tools, the connection under them, and the way to close it. */
export interface SqliteStores extends Stores {
  audit: SqliteAuditStore;
  pins: PinStore;
  database: Database.Database;
  close(): void;
}

/** Opens (creating and migrating if needed) the file at `path` and returns every store on it. */
export function openSqliteStores(path: string, options: SqliteStoresOptions = {}): SqliteStores {
  const database = openDatabase(path, options);
  const audit = createSqliteAuditStore(database, options.audit);
  return {
    database,
    approvals: createSqliteApprovalStore(database),
    idempotency: createSqliteIdempotencyStore(database),
    audit,
    pins: createSqlitePinStore(database),
    close: () => {
      audit.close();
      database.close();
    },
  };
}
