/** @module The SQLite adapters: a reader on a `readonly` connection and a writer on its own, each in a child process. */
import Database from "better-sqlite3";
import {
  assertReadOnlyAcknowledged,
  type SqlQueryResult,
  type SqlReader,
  type SqlSchema,
  type SqlWriteResult,
  type SqlWriter,
} from "../sql-port.js";
import { SqliteProcess } from "./sqlite-process-client.js";

export interface SqliteReaderOptions {
  /** An existing database file; it is never created. */
  path: string;
  /** The deployment's acknowledgement that this connection is for reads; the file is opened `readonly`. */
  readOnly: true;
  /** How long a read waits for a writer's lock; default 5 s (the call's own time limit still applies). */
  busyTimeoutMs?: number;
}

export interface SqliteWriterOptions {
  path: string;
  busyTimeoutMs?: number;
}

/**
 * Opens a reader. The file is checked here, so a wrong path fails at start-up rather than at the first call;
 * statements then run in a child process that opened the file with `readonly: true` and `fileMustExist`.
 */
export function openSqliteReader(options: SqliteReaderOptions): SqlReader {
  assertReadOnlyAcknowledged(options, "openSqliteReader");
  checkDatabase(options.path, "openSqliteReader");
  const child = new SqliteProcess({
    path: options.path,
    mode: "read",
    busyTimeoutMs: options.busyTimeoutMs ?? 5_000,
  });
  return {
    dialect: "sqlite",
    query(sql, params, limits) {
      const { maxRows, maxCellBytes, maxTotalBytes } = limits;
      return child.request<SqlQueryResult>(
        { kind: "query", sql, params: [...params], limits: { maxRows, maxCellBytes, maxTotalBytes } },
        limits.timeoutMs,
        limits.signal,
      );
    },
    schema(limits) {
      return child.request<SqlSchema>({ kind: "schema" }, limits.timeoutMs, limits.signal);
    },
    close: () => child.close(),
  };
}

/**
 * Opens a writer on its own connection (its own child process). A statement that passes its time limit is
 * stopped by killing that process: SQLite's journal rolls the unfinished transaction back.
 */
export function openSqliteWriter(options: SqliteWriterOptions): SqlWriter {
  checkDatabase(options.path, "openSqliteWriter");
  const child = new SqliteProcess({
    path: options.path,
    mode: "write",
    busyTimeoutMs: options.busyTimeoutMs ?? 5_000,
  });
  return {
    dialect: "sqlite",
    // Exactly-once is the seam's: sql_write requires an idempotency key, claimed before this runs.
    execute(sql, params, limits) {
      return child.request<SqlWriteResult>(
        { kind: "execute", sql, params: [...params] },
        limits.timeoutMs,
        limits.signal,
      );
    },
    close: () => child.close(),
  };
}

function checkDatabase(path: string, caller: string): void {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    // Opening reads nothing; this reads the header, so a file that is not a database fails here.
    db.prepare("SELECT count(*) FROM sqlite_schema").get();
  } catch (error) {
    throw new Error(`${caller}: cannot open the SQLite database "${path}": ${(error as Error).message}`);
  } finally {
    db?.close();
  }
}
