/** @module The SQL ports: a read-only `SqlReader` and a separate `SqlWriter`, each with one adapter per database. */

export type SqlDialect = "sqlite" | "postgres";

/** A positional parameter: JSON scalars only, so a model cannot smuggle a driver-specific object in. */
export type SqlParam = string | number | boolean | null;

/** A cell as it leaves the adapter: always JSON (bigints, bytes and dates already converted). */
export type SqlCell = null | boolean | number | string | SqlCell[] | { [key: string]: SqlCell };

export interface SqlColumn {
  name: string;
  /** The declared or inferred type; `null` where the database does not know (an SQLite expression). */
  type: string | null;
}

/** Bounds on one call; every adapter enforces them itself rather than trusting the statement. */
export interface SqlCallLimits {
  timeoutMs: number;
  /** Aborts the call early (the seam's deadline or the host); the statement is cancelled, not abandoned. */
  signal?: AbortSignal;
}

export interface SqlReadLimits extends SqlCallLimits {
  maxRows: number;
  /** A longer cell is cut and counted in `cellsCut`. */
  maxCellBytes: number;
  /** Rows stop before the JSON of all rows would pass this. */
  maxTotalBytes: number;
}

/** Which bound stopped reading; `null` when every row was read. (Results cross processes as JSON: no `undefined`.) */
export type SqlStop = "maxRows" | "maxTotalBytes";

export interface SqlQueryResult {
  columns: SqlColumn[];
  /** One array per row, in column order (column names may repeat, so not objects here). */
  rows: SqlCell[][];
  stoppedBy: SqlStop | null;
  cellsCut: number;
}

export interface SqlSchemaColumn {
  name: string;
  type: string;
  nullable: boolean;
  primaryKey: boolean;
}

export interface SqlTable {
  /** PostgreSQL schema; `null` for SQLite's main database. */
  schema: string | null;
  name: string;
  kind: "table" | "view";
  columns: SqlSchemaColumn[];
}

export interface SqlSchema {
  tables: SqlTable[];
  /** True when the listing stopped at its bound (see `MAX_SCHEMA_COLUMNS`). */
  truncated: boolean;
}

/**
 * Runs statements on a connection the database itself keeps read-only. Adapters do not scan statements:
 * that is the tool's second line, and the adapter tests send writes straight here to prove the first.
 * Failures are thrown as `ToolFailure`s (invalid_input, timeout, upstream_error).
 */
export interface SqlReader {
  readonly dialect: SqlDialect;
  query(sql: string, params: readonly SqlParam[], limits: SqlReadLimits): Promise<SqlQueryResult>;
  schema(limits: SqlCallLimits): Promise<SqlSchema>;
  close(): Promise<void>;
}

export interface SqlWriteLimits extends SqlCallLimits {
  /** The seam's key for this call, for adapters that can record it. */
  idempotencyKey?: string | undefined;
}

export interface SqlWriteResult {
  rowsAffected: number;
}

/** Runs one statement in its own transaction on a connection separate from any reader's. */
export interface SqlWriter {
  readonly dialect: SqlDialect;
  execute(sql: string, params: readonly SqlParam[], limits: SqlWriteLimits): Promise<SqlWriteResult>;
  close(): Promise<void>;
}

/** Schema listings stop after this many columns in all, and say so. */
export const MAX_SCHEMA_COLUMNS = 5_000;

/**
 * Refuses to build a reader unless the deployment typed `readOnly: true`. The type already demands the
 * literal; this catches JavaScript callers and casts.
 */
export function assertReadOnlyAcknowledged(options: { readOnly?: unknown }, adapter: string): void {
  if (options?.readOnly !== true) {
    throw new TypeError(
      `${adapter}: a SQL reader needs an explicit \`readOnly: true\`, acknowledging that it is for reads only`,
    );
  }
}
