/** @module The input fields the SQL tools share: the statement and its positional parameters. */
import { z } from "zod";
import { SQL_LIMITS } from "./sql-limits.js";
import type { SqlDialect } from "./sql-port.js";

const PLACEHOLDERS: Record<SqlDialect, string> = { sqlite: "?", postgres: "$1, $2, …" };

export function sqlField(dialect: SqlDialect, what: string) {
  return z
    .string()
    .min(1)
    .max(SQL_LIMITS.maxSqlChars)
    .describe(`one ${dialect === "postgres" ? "PostgreSQL" : "SQLite"} statement: ${what}`);
}

export function paramsField(dialect: SqlDialect) {
  return z
    .array(z.union([z.string().max(SQL_LIMITS.maxParamChars), z.number(), z.boolean(), z.null()]))
    .max(SQL_LIMITS.maxParams)
    .optional()
    .describe(
      `values bound in order to the ${PLACEHOLDERS[dialect]} placeholders; pass values here rather than in the SQL text`,
    );
}
