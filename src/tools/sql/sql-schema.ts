/** @module `sql_schema`: the tables, views and columns the reader can see. */
import { z } from "zod";
import { missing } from "../toolkit/missing.js";
import { sqlTool } from "./sql-env.js";
import { SEAM_MARGIN_MS, SQL_LIMITS } from "./sql-limits.js";
import type { SqlDialect, SqlTable } from "./sql-port.js";

function describeTable(table: SqlTable): string {
  const name = table.schema === null ? table.name : `${table.schema}.${table.name}`;
  const columns = table.columns.map((column) => {
    const marks = [column.primaryKey ? "primary key" : "", column.nullable ? "" : "not null"].filter(Boolean);
    return `${column.name} ${column.type || "(no type)"}${marks.length > 0 ? ` ${marks.join(", ")}` : ""}`;
  });
  return `${name} (${table.kind}): ${columns.join("; ")}`;
}

export function sqlSchemaSpec(dialect: SqlDialect) {
  return sqlTool({
    name: "sql_schema",
    description: `Lists the tables and views of the deployment's ${dialect === "postgres" ? "PostgreSQL" : "SQLite"} database with their columns, types, primary keys and nullability. Call it before writing a query with sql_query.`,
    available: (env) => env.reader !== undefined,
    category: "data",
    effect: "read",
    cost: "io",
    input: z.object({}),
    limits: { timeoutMs: SQL_LIMITS.schemaTimeoutMs + SEAM_MARGIN_MS, outputBytes: 1024 * 1024 },
    async run(_input, context, { reader = missing("a database reader") }) {
      const schema = await reader.schema({ timeoutMs: SQL_LIMITS.schemaTimeoutMs, signal: context.signal });
      const lines = schema.tables.map(describeTable);
      if (lines.length === 0) lines.push("The database has no tables this connection can read.");
      if (schema.truncated) lines.push("The listing stopped at its size limit: more tables exist.");
      return {
        content: lines.join("\n"),
        data: { dialect: reader.dialect, tables: schema.tables, truncated: schema.truncated },
        truncated: schema.truncated,
      };
    },
  });
}
