/** @module toolreg/stores/postgres — the store adapters on one PostgreSQL database that many instances share. */
import pg from "pg";
import type { AuthStoreOptions } from "../../ports/auth-store.js";
import type { DeploymentStores } from "../../ports/deployment-stores.js";
import type { PinStore } from "../../ports/pin-store.js";
import type { ScheduleStoreOptions } from "../../ports/schedule-store.js";
import type { Stores } from "../../ports/stores.js";
import { createPostgresApprovalStore } from "./approvals.js";
import { createPostgresAttachmentStore } from "./attachments.js";
import { createPostgresAuditStore, type PostgresAuditStore } from "./audit.js";
import { createPostgresAuthStore } from "./auth.js";
import { createPostgresConsentStore } from "./consents.js";
import { createPostgresCredentialStore } from "./credentials.js";
import { createPostgresIdempotencyStore } from "./idempotency.js";
import { createPostgresKnowledgeBase } from "./knowledge.js";
import { createPostgresPinStore } from "./mcp-pins.js";
import { createPostgresMemoryStore } from "./memories.js";
import { migrate, quoteSchema } from "./migrations.js";
import { createPostgresScheduleStore } from "./schedules.js";
import { SettledListener } from "./settled-listener.js";
import { createPostgresSkillStore } from "./skills.js";
import { createPostgresTodoStore } from "./todos.js";
import { createPostgresToolkitRecordStore } from "./toolkit-records.js";

export { createPostgresArtifactStore } from "./artifacts.js";
export { POSTGRES_MIGRATIONS, type PostgresMigration } from "./migrations.js";
export {
  createPostgresAttachmentStore,
  createPostgresAuthStore,
  createPostgresConsentStore,
  createPostgresCredentialStore,
  createPostgresKnowledgeBase,
  createPostgresMemoryStore,
  createPostgresPinStore,
  createPostgresScheduleStore,
  createPostgresSkillStore,
  createPostgresTodoStore,
  createPostgresToolkitRecordStore,
};

export interface PostgresStoresOptions {
  /** A `postgres://` URL. */
  connectionString: string;
  /** The schema the tables live in, created if missing; lower-case letters, digits and _. Default `toolreg`. */
  schema?: string;
  /** Connections the pool may open; default 10. */
  maxConnections?: number;
}

/**
 * The three stores and the pins of imported MCP tools on one pool, the pool and schema under them (for the
 * stores opened with more than a pool: credentials and consents under the operator's key, artifacts), and the
 * way to close it.
 */
export interface PostgresStores extends Stores {
  audit: PostgresAuditStore;
  pins: PinStore;
  pool: pg.Pool;
  /** The schema as a quoted identifier, as the `createPostgres…Store(pool, schema)` functions take it. */
  schema: string;
  close(): Promise<void>;
}

const INT8 = 20;
// Times are milliseconds in BIGINT columns, well inside a double's exact range; pg hands int8 back as text.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8 ? Number : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/** Connects, creates and migrates the schema if needed (once, however many instances open together), and returns the stores. */
export async function openPostgresStores(options: PostgresStoresOptions): Promise<PostgresStores> {
  const schema = options.schema ?? "toolreg";
  const quoted = quoteSchema(schema);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    types,
  });
  // An idle connection the server dropped (a restart) is replaced on next use, and each query reports its
  // own failure; unhandled, pg's error event would end the process.
  pool.on("error", () => {});
  try {
    await migrate(pool, schema);
  } catch (error) {
    await pool.end();
    throw error;
  }
  // A call's event goes in with its completion, and a request's with its parking: no side effect, and no
  // parked call, is ever stored without its audit event, whatever kills the process.
  const audit = createPostgresAuditStore(pool, quoted);
  // Its own connection, outside the pool: LISTEN holds it for as long as the stores are open.
  const listener = new SettledListener({ connectionString: options.connectionString, types }, schema);
  return {
    pool,
    schema: quoted,
    approvals: createPostgresApprovalStore(pool, quoted, audit),
    idempotency: createPostgresIdempotencyStore(pool, quoted, { audit, listener }),
    audit,
    pins: createPostgresPinStore(pool, quoted),
    close: async () => {
      await listener.close();
      // The reads' events that wait are written before the connections go.
      await audit
        .flush()
        .catch((error: unknown) => console.error("toolreg: audit events lost at close", error));
      await pool.end();
    },
  };
}

export interface PostgresDeploymentOptions extends PostgresStoresOptions {
  auth?: AuthStoreOptions;
  /** The operator's key credentials and consents are sealed under; without it there are none. */
  credentialsKey?: Uint8Array;
  /** The schedule store's cap and floor; the defaults unless given (tests lower the floor). */
  schedules?: ScheduleStoreOptions;
}

export interface PostgresDeployment extends DeploymentStores {
  pool: pg.Pool;
  /** The schema as a quoted identifier, as the `createPostgres…Store(pool, schema)` functions take it. */
  schema: string;
}

/**
 * Every store a registry server needs on one PostgreSQL database that many instances share. Rejects, with
 * no connection left open, when a store refuses to open (a key other than the one the secrets are sealed under,
 * say); closing it ends the pool, and closing it again does nothing.
 */
export async function openPostgresDeployment(
  options: PostgresDeploymentOptions,
): Promise<PostgresDeployment> {
  const stores = await openPostgresStores(options);
  const { pool, schema, approvals, idempotency, audit, pins } = stores;
  try {
    const auth = createPostgresAuthStore(pool, schema, options.auth ?? {});
    const key = options.credentialsKey;
    const sealed = key && {
      credentials: await createPostgresCredentialStore(pool, schema, key),
      consents: await createPostgresConsentStore(pool, schema, key),
    };
    // The stores' own close: the settled listener ends and the reads' waiting audit events go in first.
    let closed: Promise<void> | undefined;
    const close = () => {
      closed ??= stores.close();
      return closed;
    };
    const todos = createPostgresTodoStore(pool, schema);
    const schedules = createPostgresScheduleStore(pool, schema, options.schedules);
    const memories = createPostgresMemoryStore(pool, schema);
    const skills = createPostgresSkillStore(pool, schema);
    const knowledge = createPostgresKnowledgeBase(pool, schema);
    const attachments = createPostgresAttachmentStore(pool, schema);
    const records = createPostgresToolkitRecordStore(pool, schema);
    return {
      pool,
      schema,
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
      close,
    };
  } catch (error) {
    // The refusal is what the caller needs to see, not a failure to close after it.
    await stores.close().catch(() => {});
    throw error;
  }
}
