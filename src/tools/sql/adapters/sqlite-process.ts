/**
 * @module The SQLite process: one better-sqlite3 connection in a child process, answering requests over IPC.
 * A process, not a worker thread, because better-sqlite3 cannot be interrupted: a statement that never
 * yields a row (an endless `WITH RECURSIVE … SELECT count(*)`) stays inside native code, where
 * `Worker.terminate()` never takes effect. A process can always be killed.
 */
import Database from "better-sqlite3";
import {
  MAX_SCHEMA_COLUMNS,
  type SqlParam,
  type SqlQueryResult,
  type SqlReadLimits,
  type SqlSchema,
  type SqlTable,
  type SqlWriteResult,
} from "../sql-port.js";
import { RowCollector } from "../sql-values.js";

export interface SqliteProcessConfig {
  path: string;
  /** `read` opens the file with `readonly: true`: SQLite itself refuses every write on this connection. */
  mode: "read" | "write";
  busyTimeoutMs: number;
}

type RowLimits = Pick<SqlReadLimits, "maxRows" | "maxCellBytes" | "maxTotalBytes">;

export type SqliteRequestBody =
  | { kind: "query"; sql: string; params: SqlParam[]; limits: RowLimits }
  | { kind: "schema" }
  | { kind: "execute"; sql: string; params: SqlParam[] };

export type SqliteRequest = SqliteRequestBody & { id: number };

export interface SqliteErrorInfo {
  name: string;
  code: string | undefined;
  message: string;
}

export type SqliteReply =
  | { kind: "ready" }
  | { kind: "fatal"; error: SqliteErrorInfo }
  | { kind: "result"; id: number; result: SqlQueryResult | SqlSchema | SqlWriteResult }
  | { kind: "error"; id: number; error: SqliteErrorInfo };

function errorInfo(error: unknown): SqliteErrorInfo {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { name: error.name, code: typeof code === "string" ? code : undefined, message: error.message };
  }
  return { name: "Error", code: undefined, message: String(error) };
}

/** better-sqlite3 binds numbers, strings, bigints, buffers and null; a boolean is SQLite's 1 or 0. */
function bindable(params: readonly SqlParam[]): (string | number | null)[] {
  return params.map((param) => (typeof param === "boolean" ? Number(param) : param));
}

function query(db: Database.Database, sql: string, params: SqlParam[], limits: RowLimits): SqlQueryResult {
  const statement = db.prepare(sql);
  if (!statement.reader) {
    // Run it rather than refuse it here: on a read-only connection SQLite answers a write with
    // SQLITE_READONLY, and that refusal is the guarantee the tests check.
    statement.run(...bindable(params));
    return { columns: [], rows: [], stoppedBy: null, cellsCut: 0 };
  }
  statement.raw(true).safeIntegers(true);
  const columns = statement.columns().map((column) => ({ name: column.name, type: column.type }));
  const collector = new RowCollector(limits);
  // Iterating (not `all()`) stops reading at the first row past a bound; leaving the loop resets the statement.
  for (const row of statement.iterate(...bindable(params)) as Iterable<unknown[]>) {
    if (!collector.add(row)) break;
  }
  return collector.result(columns);
}

function schema(db: Database.Database): SqlSchema {
  const tables = db
    .prepare(
      "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .all() as { name: string; type: "table" | "view" }[];
  const columnsOf = db.prepare('SELECT name, type, "notnull", pk FROM pragma_table_info(?)');
  const listed: SqlTable[] = [];
  let count = 0;
  for (const table of tables) {
    const columns = columnsOf.all(table.name) as {
      name: string;
      type: string;
      notnull: number;
      pk: number;
    }[];
    count += columns.length;
    if (count > MAX_SCHEMA_COLUMNS) return { tables: listed, truncated: true };
    listed.push({
      schema: null,
      name: table.name,
      kind: table.type,
      columns: columns.map((column) => ({
        name: column.name,
        type: column.type,
        nullable: column.notnull === 0,
        primaryKey: column.pk > 0,
      })),
    });
  }
  return { tables: listed, truncated: false };
}

function execute(db: Database.Database, sql: string, params: SqlParam[]): SqlWriteResult {
  const statement = db.prepare(sql);
  if (!statement.reader) return { rowsAffected: statement.run(...bindable(params)).changes };
  // `… RETURNING` yields one row per changed row.
  let rowsAffected = 0;
  for (const _ of statement.iterate(...bindable(params))) rowsAffected++;
  return { rowsAffected };
}

function handle(db: Database.Database, request: SqliteRequest): SqliteReply {
  try {
    switch (request.kind) {
      case "query":
        return {
          kind: "result",
          id: request.id,
          result: query(db, request.sql, request.params, request.limits),
        };
      case "schema":
        return { kind: "result", id: request.id, result: schema(db) };
      default:
        return { kind: "result", id: request.id, result: execute(db, request.sql, request.params) };
    }
  } catch (error) {
    return { kind: "error", id: request.id, error: errorInfo(error) };
  } finally {
    // A statement that opened a transaction (BEGIN) must not hold its lock into the next request.
    if (db.inTransaction) {
      try {
        db.exec("ROLLBACK");
      } catch {
        // Nothing to undo on a read-only connection; a writer's transaction ends with the process at worst.
      }
    }
  }
}

function main(): void {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error("sqlite-process runs only as a forked child with an IPC channel");
  const config = JSON.parse(process.argv[2] ?? "{}") as SqliteProcessConfig;
  let db: Database.Database;
  try {
    db = new Database(config.path, { readonly: config.mode === "read", fileMustExist: true });
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(config.busyTimeoutMs))}`);
  } catch (error) {
    // Exit once the message is out, so the parent reads why rather than just an exit code.
    send({ kind: "fatal", error: errorInfo(error) } satisfies SqliteReply, undefined, undefined, () =>
      process.exit(1),
    );
    return;
  }
  // The parent owns this process: when it goes, so does this one.
  process.on("disconnect", () => process.exit(0));
  process.on("message", (request: SqliteRequest) => {
    send(handle(db, request));
  });
  send({ kind: "ready" } satisfies SqliteReply);
}

main();
