/**
 * @module The SQL toolkit: sql_query and sql_schema on a read-only connection, sql_write on a connection of
 * its own. Each tool exists exactly when its connection is configured; each states its dialect.
 */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { openDatabase } from "./open-database.js";
import type { SqlEnv } from "./sql-env.js";
import type { SqlDialect } from "./sql-port.js";
import { sqlQuerySpec } from "./sql-query.js";
import { sqlSchemaSpec } from "./sql-schema.js";
import { sqlWriteSpec } from "./sql-write.js";

const databaseUrl = z.string().regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, "sqlite:PATH or postgres://…");

export const SqlConfigSchema = z.strictObject({
  read: databaseUrl
    .optional()
    .meta({ description: "the database sql_query and sql_schema read, opened read-only" }),
  write: databaseUrl
    .optional()
    .meta({ description: "the database sql_write changes, on a connection of its own" }),
});

const specsFor = (read: SqlDialect, write: SqlDialect) => [
  sqlQuerySpec(read),
  sqlSchemaSpec(read),
  sqlWriteSpec(write),
];

export const sqlToolkit = defineToolkit({
  id: "sql",
  version: "1.0.0",
  package: "toolreg",
  description:
    "Reads a SQL database (SQLite or PostgreSQL) read-only, and changes it on a separate connection.",
  config: SqlConfigSchema,
  auth: { kind: "none" },
  // Documented for SQLite, the embedded default; a PostgreSQL connection declares its own dialect.
  tools: specsFor("sqlite", "sqlite"),
  toolsFor: ({ reader, writer }) => specsFor(reader?.dialect ?? "sqlite", writer?.dialect ?? "sqlite"),
  reviewedOverrides: [
    { tool: "sql_query", field: "approval" },
    { tool: "sql_write", field: "approval" },
    { tool: "sql_write", field: "idempotencyKey" },
  ],
  async bind({ read, write }, host): Promise<SqlEnv | undefined> {
    if (read === undefined && write === undefined) return undefined;
    const reader = read === undefined ? undefined : await openDatabase(read, "read");
    if (reader) host.onClose(() => reader.close());
    const writer = write === undefined ? undefined : await openDatabase(write, "write");
    if (writer) host.onClose(() => writer.close());
    return { reader, writer };
  },
});
