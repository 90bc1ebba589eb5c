/** @module toolreg/stores/sqlite — the store adapters on one SQLite file that several processes may share. */
import type Database from "better-sqlite3";
import type { AuthStoreOptions } from "../../ports/auth-store.js";
import type { DeploymentStores } from "../../ports/deployment-stores.js";
import type { PinStore } from "../../ports/pin-store.js";
import type { ScheduleStoreOptions } from "../../ports/schedule-store.js";
import type { Stores } from "../../ports/stores.js";
import { createSqliteApprovalStore } from "./approvals.js";
import { createSqliteAttachmentStore } from "./attachments.js";
import { createSqliteAuditStore, type SqliteAuditOptions, type SqliteAuditStore } from "./audit.js";
import { openSqliteAuthStore } from "./auth.js";
import { createSqliteConsentStore } from "./consents.js";
import { createSqliteCredentialStore } from "./credentials.js";
import { type OpenDatabaseOptions, openDatabase } from "./database.js";
import { createSqliteIdempotencyStore } from "./idempotency.js";
import { createSqliteKnowledgeBase } from "./knowledge.js";
import { createSqlitePinStore } from "./mcp-pins.js";
import { createSqliteMemoryStore } from "./memories.js";
import { createSqliteScheduleStore } from "./schedules.js";
import { createSqliteSkillStore } from "./skills.js";
import { createSqliteTodoStore } from "./todos.js";
import { createSqliteToolkitRecordStore } from "./toolkit-records.js";

export { parseSecretKey, SecretBoxError } from "../sql/secret-box.js";
export { MIGRATIONS, type Migration, migrate } from "./migrations.js";
export {
  createSqliteApprovalStore,
  createSqliteAttachmentStore,
  createSqliteAuditStore,
  createSqliteConsentStore,
  createSqliteCredentialStore,
  createSqliteIdempotencyStore,
  createSqliteKnowledgeBase,
  createSqliteMemoryStore,
  createSqlitePinStore,
  createSqliteScheduleStore,
  createSqliteSkillStore,
  createSqliteTodoStore,
  createSqliteToolkitRecordStore,
  type OpenDatabaseOptions,
  openDatabase,
  openSqliteAuthStore,
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
  // A call's event goes in with its completion, and a request's with its parking: no side effect, and no
  // parked call, is ever stored without its audit event, whatever kills the process.
  return {
    database,
    approvals: createSqliteApprovalStore(database, { audit }),
    idempotency: createSqliteIdempotencyStore(database, { audit }),
    audit,
    pins: createSqlitePinStore(database),
    close: () => {
      audit.close();
      database.close();
    },
  };
}

export interface SqliteDeploymentOptions extends SqliteStoresOptions {
  auth?: AuthStoreOptions;
  /** The operator's key credentials and consents are sealed under; without it there are none. */
  credentialsKey?: Uint8Array;
  /** The schedule store's cap and floor; the defaults unless given (tests lower the floor). */
  schedules?: ScheduleStoreOptions;
}

/** Every store a registry server needs on the file at `path`, which the processes of one host may share. */
export function openSqliteDeployment(path: string, options: SqliteDeploymentOptions = {}): DeploymentStores {
  const stores = openSqliteStores(path, options);
  const closing: (() => unknown)[] = [() => stores.close()];
  const closeAll = async () => {
    for (const close of closing.splice(0).reverse()) await close();
  };
  try {
    const auth = openSqliteAuthStore(path, options.auth);
    closing.push(() => auth.close());
    const key = options.credentialsKey;
    const sealed = key && {
      credentials: createSqliteCredentialStore(stores.database, key),
      consents: createSqliteConsentStore(stores.database, key),
    };
    const { approvals, idempotency, audit, pins } = stores;
    const todos = createSqliteTodoStore(stores.database);
    const schedules = createSqliteScheduleStore(stores.database, options.schedules);
    const memories = createSqliteMemoryStore(stores.database);
    const skills = createSqliteSkillStore(stores.database);
    const knowledge = createSqliteKnowledgeBase(stores.database);
    const records = createSqliteToolkitRecordStore(stores.database);
    // The bytes beside the state file, in a folder of its own.
    const attachments = createSqliteAttachmentStore(stores.database, `${path}.attachments`);
    return {
      approvals,
      idempotency,
      audit,
      pins,
      todos,
      schedules,
      memories,
      attachments,
      knowledge,
      skills,
      records,
      auth,
      sealed,
      close: closeAll,
    };
  } catch (error) {
    // A key other than the one the secrets are sealed under, say: nothing stays open.
    closeAll().catch(() => {});
    throw error;
  }
}
