/**
 * @module The PostgreSQL adapters. The reader's connections start with `default_transaction_read_only=on`
 * and a `statement_timeout`, and every statement runs inside `BEGIN READ ONLY` … `ROLLBACK` with its own
 * `SET LOCAL statement_timeout`; the writer has a pool of its own. For a hard guarantee, also connect the
 * reader as a role that holds only SELECT (and is not a superuser): read-only transactions do not stop
 * functions such as `pg_terminate_backend`.
 */
import pg from "pg";
import {
  assertReadOnlyAcknowledged,
  MAX_SCHEMA_COLUMNS,
  type SqlCallLimits,
  type SqlColumn,
  type SqlParam,
  type SqlReader,
  type SqlSchema,
  type SqlTable,
  type SqlWriter,
} from "../sql-port.js";
import { RowCollector } from "../sql-values.js";
import { firstKeyword } from "../statement-scan.js";
import { postgresFailure } from "./postgres-errors.js";

export interface PostgresConnectionOptions {
  /** A `postgres://` URL or pg pool settings. */
  connection: string | pg.PoolConfig;
  /** The longest any statement may run: the connection's `statement_timeout` backstop. Default 60 s. */
  maxTimeoutMs?: number;
  /** Pool size; default 4. */
  maxConnections?: number;
}

export interface PostgresReaderOptions extends PostgresConnectionOptions {
  /** The deployment's acknowledgement that this connection is for reads; the connection is made read-only. */
  readOnly: true;
}

export type PostgresWriterOptions = PostgresConnectionOptions;

/** Statements DECLARE can hold a cursor over, so reading stops at the row limit on the server side. */
const CURSOR_STATEMENTS = new Set(["SELECT", "WITH", "VALUES", "TABLE"]);
const FETCH_BATCH = 100;
const CURSOR = "toolreg_rows";

/**
 * Date and time types stay as PostgreSQL prints them (a `date` parsed into a JavaScript Date would shift by
 * the host's zone); int8 becomes a number when exact (count(*) is int8), else stays digits.
 */
const RAW_TEXT_TYPES = new Set([1082, 1083, 1114, 1184, 1186, 1266, 1182, 1183, 1115, 1185, 1187, 1270]);
const INT8 = 20;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (RAW_TEXT_TYPES.has(oid)) return (value: string) => value;
    if (oid === INT8) {
      return (value: string) => (Number.isSafeInteger(Number(value)) ? Number(value) : value);
    }
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/** Opens a read-only reader pool. */
export function openPostgresReader(options: PostgresReaderOptions): SqlReader {
  assertReadOnlyAcknowledged(options, "openPostgresReader");
  const maxTimeoutMs = options.maxTimeoutMs ?? 60_000;
  const config = poolConfig(options, ["-c default_transaction_read_only=on"]);
  const pool = newPool(config);
  const typeNames = new Map<number, string>();

  return {
    dialect: "postgres",
    query: (sql, params, limits) =>
      readOnly(pool, config, limits, maxTimeoutMs, async (client, timeoutMs, started) => {
        const collector = new RowCollector(limits);
        let fields: pg.FieldDef[];
        if (CURSOR_STATEMENTS.has(firstKeyword(sql, "postgres") ?? "")) {
          await client.query(extended(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${sql}`, params));
          fields = [];
          while (collector.stoppedBy === null) {
            // Each FETCH is its own statement: give it what is left of the call's time, not a fresh limit.
            const left = timeoutMs - (Date.now() - started);
            if (left <= 0) throw Object.assign(new Error("statement timeout"), { code: "57014" });
            await setStatementTimeout(client, left);
            const want = Math.min(FETCH_BATCH, limits.maxRows + 1 - collector.rows.length);
            const batch = await client.query<unknown[]>({
              text: `FETCH FORWARD ${want} FROM ${CURSOR}`,
              rowMode: "array",
            });
            fields = batch.fields;
            for (const row of batch.rows) if (!collector.add(row)) break;
            if (batch.rows.length < want) break;
          }
        } else {
          // EXPLAIN, SHOW and anything else: their results are small, and a write is refused by the server.
          const result = await client.query<unknown[]>({ ...extended(sql, params), rowMode: "array" });
          fields = result.fields ?? [];
          for (const row of result.rows ?? []) if (!collector.add(row)) break;
        }
        return collector.result(await columnsOf(client, fields, typeNames));
      }),
    schema: (limits) =>
      readOnly(pool, config, limits, maxTimeoutMs, async (client) => {
        const result = await client.query<SchemaRow>(SCHEMA_QUERY, [MAX_SCHEMA_COLUMNS + 1]);
        return schemaOf(result.rows);
      }),
    close: closer(pool),
  };
}

/** Opens a writer pool: each statement in its own read-write transaction, committed or rolled back. */
export function openPostgresWriter(options: PostgresWriterOptions): SqlWriter {
  const maxTimeoutMs = options.maxTimeoutMs ?? 60_000;
  const config = poolConfig(options, []);
  const pool = newPool(config);
  return {
    dialect: "postgres",
    // Exactly-once is the seam's: sql_write requires an idempotency key, claimed before this runs.
    async execute(sql, params, limits) {
      const timeoutMs = Math.min(limits.timeoutMs, maxTimeoutMs);
      const client = await connect(pool, timeoutMs);
      const stopCancel = cancelOnAbort(limits.signal, config, client);
      let broken = false;
      try {
        await client.query("BEGIN READ WRITE");
        await setStatementTimeout(client, timeoutMs);
        const result = await client.query(extended(sql, params));
        await client.query("COMMIT");
        return { rowsAffected: result.rowCount ?? 0 };
      } catch (error) {
        broken = !(await rollback(client));
        throw postgresFailure(error, {
          phase: "statement",
          timeoutMs,
          aborted: limits.signal?.aborted === true,
        });
      } finally {
        stopCancel();
        client.release(broken);
      }
    },
    close: closer(pool),
  };
}

/** pg throws when a pool is ended twice; closing an adapter twice is harmless. */
function closer(pool: pg.Pool): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= pool.end();
    return closing;
  };
}

function poolConfig(options: PostgresConnectionOptions, settings: string[]): pg.PoolConfig {
  const base: pg.PoolConfig =
    typeof options.connection === "string"
      ? { connectionString: options.connection }
      : { ...options.connection };
  let userOptions = base.options ?? "";
  // pg lets a connection string's own `options` replace the config's, which would drop ours: merge them.
  if (base.connectionString) {
    const url = new URL(base.connectionString);
    const fromUrl = url.searchParams.get("options");
    if (fromUrl !== null) {
      url.searchParams.delete("options");
      base.connectionString = url.toString();
      userOptions = `${userOptions} ${fromUrl}`;
    }
  }
  const maxTimeoutMs = options.maxTimeoutMs ?? 60_000;
  // Ours come last, so they win over anything the deployment passed for the same setting.
  const ours = [...settings, `-c statement_timeout=${Math.ceil(maxTimeoutMs)}`];
  return {
    ...base,
    options: [userOptions.trim(), ...ours].filter(Boolean).join(" "),
    max: options.maxConnections ?? 4,
    idleTimeoutMillis: 10_000,
    // The driver's own clock, should the server never answer at all.
    query_timeout: maxTimeoutMs + 5_000,
    allowExitOnIdle: true,
    types,
  };
}

function newPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  // An idle connection dropped by the server emits here; unheard, it would crash the host. The next
  // checkout opens a fresh connection and reports any real problem to its caller.
  pool.on("error", () => {});
  return pool;
}

async function connect(pool: pg.Pool, timeoutMs: number): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw postgresFailure(error, { phase: "connect", timeoutMs, aborted: false });
  }
}

type ReadBody<T> = (client: pg.PoolClient, timeoutMs: number, started: number) => Promise<T>;

/** Runs `body` inside BEGIN READ ONLY … ROLLBACK: nothing a read does is ever committed. */
async function readOnly<T>(
  pool: pg.Pool,
  config: pg.PoolConfig,
  limits: SqlCallLimits,
  maxTimeoutMs: number,
  body: ReadBody<T>,
): Promise<T> {
  const timeoutMs = Math.min(limits.timeoutMs, maxTimeoutMs);
  const started = Date.now();
  const client = await connect(pool, timeoutMs);
  const stopCancel = cancelOnAbort(limits.signal, config, client);
  try {
    await client.query("BEGIN READ ONLY");
    await setStatementTimeout(client, timeoutMs);
    return await body(client, timeoutMs, started);
  } catch (error) {
    throw postgresFailure(error, { phase: "statement", timeoutMs, aborted: limits.signal?.aborted === true });
  } finally {
    stopCancel();
    // Always ROLLBACK, also after success: a SET or set_config() inside the statement is undone with it.
    const clean = await rollback(client);
    client.release(!clean);
  }
}

async function rollback(client: pg.PoolClient): Promise<boolean> {
  try {
    await client.query("ROLLBACK");
    return true;
  } catch {
    return false;
  }
}

function setStatementTimeout(client: pg.PoolClient, timeoutMs: number): Promise<unknown> {
  return client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(timeoutMs))}`);
}

/**
 * Always the extended protocol, even without parameters: it carries exactly one statement, so a
 * `ROLLBACK; SET …; INSERT …` cannot slip out of the read-only transaction.
 */
function extended(text: string, params: readonly SqlParam[]): pg.QueryConfig {
  return { text, values: [...params], queryMode: "extended" } as pg.QueryConfig;
}

/** An abort (the seam's deadline, the host) cancels the running statement on the server. */
function cancelOnAbort(
  signal: AbortSignal | undefined,
  config: pg.PoolConfig,
  client: pg.PoolClient,
): () => void {
  if (!signal) return () => {};
  const processId = (client as unknown as { processID: number | null }).processID;
  const cancel = () => {
    if (processId === null) return;
    const canceller = new pg.Client(config);
    canceller
      .connect()
      .then(() => canceller.query("SELECT pg_cancel_backend($1)", [processId]))
      .catch(() => {}) // best effort: statement_timeout ends it anyway
      .finally(() => canceller.end().catch(() => {}));
  };
  signal.addEventListener("abort", cancel, { once: true });
  return () => signal.removeEventListener("abort", cancel);
}

async function columnsOf(
  client: pg.PoolClient,
  fields: pg.FieldDef[],
  typeNames: Map<number, string>,
): Promise<SqlColumn[]> {
  const unknown = [...new Set(fields.map((field) => field.dataTypeID))].filter((oid) => !typeNames.has(oid));
  if (unknown.length > 0) {
    const result = await client.query<{ oid: string; name: string }>(
      "SELECT oid::text AS oid, format_type(oid, NULL) AS name FROM pg_type WHERE oid = ANY($1::oid[])",
      [unknown],
    );
    for (const row of result.rows) typeNames.set(Number(row.oid), row.name);
  }
  return fields.map((field) => ({ name: field.name, type: typeNames.get(field.dataTypeID) ?? null }));
}

interface SchemaRow {
  schema: string;
  table: string;
  kind: "table" | "view";
  column: string;
  type: string;
  nullable: boolean;
  primary_key: boolean;
}

/** Tables, views and their columns this role may read, outside the system schemas; partitions folded into parents. */
const SCHEMA_QUERY = `
  SELECT n.nspname AS schema, c.relname AS table,
         CASE WHEN c.relkind IN ('v', 'm') THEN 'view' ELSE 'table' END AS kind,
         a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
         NOT a.attnotnull AS nullable, coalesce(a.attnum = ANY(i.indkey), false) AS primary_key
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
   WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
     AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
     AND has_table_privilege(c.oid, 'SELECT')
   ORDER BY n.nspname, c.relname, a.attnum
   LIMIT $1`;

function schemaOf(rows: SchemaRow[]): SqlSchema {
  const truncated = rows.length > MAX_SCHEMA_COLUMNS;
  const tables: SqlTable[] = [];
  for (const row of rows.slice(0, MAX_SCHEMA_COLUMNS)) {
    let table = tables.at(-1);
    if (table?.schema !== row.schema || table.name !== row.table) {
      table = { schema: row.schema, name: row.table, kind: row.kind, columns: [] };
      tables.push(table);
    }
    table.columns.push({
      name: row.column,
      type: row.type,
      nullable: row.nullable,
      primaryKey: row.primary_key,
    });
  }
  // A table cut part-way would look complete; drop it.
  if (truncated) tables.pop();
  return { tables, truncated };
}
