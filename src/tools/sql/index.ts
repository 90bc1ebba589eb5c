/**
 * @module The SQL toolkit: sql_query and sql_schema over a read-only `SqlReader`, sql_write over a separate
 * `SqlWriter`. The database drivers stay out of this entry: adapters are imported from `./adapters/sqlite.js`
 * and `./adapters/postgres.js`.
 */
import type { ToolModule } from "../../registry/tool-module.js";
import type { SqlReader, SqlWriter } from "./sql-port.js";
import { sqlToolkit } from "./toolkit.js";

export { openDatabase } from "./open-database.js";
export { SQL_LIMITS } from "./sql-limits.js";
export type {
  SqlCallLimits,
  SqlCell,
  SqlColumn,
  SqlDialect,
  SqlParam,
  SqlQueryResult,
  SqlReader,
  SqlReadLimits,
  SqlSchema,
  SqlSchemaColumn,
  SqlStop,
  SqlTable,
  SqlWriteLimits,
  SqlWriteResult,
  SqlWriter,
} from "./sql-port.js";
export { type ScanVerdict, scanReadStatement, scanWriteStatement } from "./statement-scan.js";
export { sqlToolkit } from "./toolkit.js";

export interface SqlToolDeps {
  /** A read-only reader: sql_query and sql_schema exist exactly when one is given. */
  sqlReader?: SqlReader;
  /** A writer on its own connection: sql_write exists exactly when one is given. */
  sqlWriter?: SqlWriter;
}

export const sqlTools: ToolModule<SqlToolDeps> = (deps) => {
  if (deps.sqlReader !== undefined && (deps.sqlReader as unknown) === deps.sqlWriter) {
    throw new TypeError("sqlTools: sql_write needs a writer on its own connection, not the reader");
  }
  return sqlToolkit.withEnv({ reader: deps.sqlReader, writer: deps.sqlWriter });
};
