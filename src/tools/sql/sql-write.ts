/** @module `sql_write`: one data-changing statement, on the writer's own connection, approved and run once. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { missing } from "../toolkit/missing.js";
import { sqlTool } from "./sql-env.js";
import { paramsField, sqlField } from "./sql-input.js";
import { SEAM_MARGIN_MS, SQL_LIMITS } from "./sql-limits.js";
import type { SqlDialect } from "./sql-port.js";
import { scanWriteStatement } from "./statement-scan.js";

export function sqlWriteSpec(dialect: SqlDialect) {
  return sqlTool({
    name: "sql_write",
    description:
      `Runs one data-changing SQL statement (INSERT, UPDATE, DELETE, CREATE …) on the deployment's ${dialect === "postgres" ? "PostgreSQL" : "SQLite"} database, in its own transaction. ` +
      "Every call waits for a person to approve it and then runs once. Transaction control, SET/RESET, ATTACH/DETACH, VACUUM, COPY, LOAD and PRAGMA are refused. Use sql_query to read.",
    available: (env) => env.writer !== undefined,
    category: "data",
    effect: "internal-write",
    // UPDATE, DELETE and DROP change or remove what was there.
    hints: { destructive: true },
    approval: "always",
    idempotencyKey: true,
    overrideReason:
      "a write to a database the deployment owns must be confirmed by a person and must not repeat on retry",
    cost: "io",
    input: z.object({
      sql: sqlField(dialect, "the change to make"),
      params: paramsField(dialect),
    }),
    limits: { timeoutMs: SQL_LIMITS.writeTimeoutMs + SEAM_MARGIN_MS },
    async run({ sql, params = [] }, context, { writer = missing("a database writer") }) {
      const verdict = scanWriteStatement(sql, writer.dialect);
      if (!verdict.ok) {
        throw new ToolFailure("invalid_input", verdict.message, { details: { rule: verdict.rule } });
      }
      // The seam claimed the idempotency key before this ran, so a retry replays this result instead.
      const { rowsAffected } = await writer.execute(sql, params, {
        timeoutMs: SQL_LIMITS.writeTimeoutMs,
        signal: context.signal,
        idempotencyKey: context.idempotencyKey,
      });
      return {
        content: `${verdict.keyword} done: ${rowsAffected} row${rowsAffected === 1 ? "" : "s"} affected.`,
        data: { dialect: writer.dialect, statement: verdict.keyword, rowsAffected },
      };
    },
  });
}
