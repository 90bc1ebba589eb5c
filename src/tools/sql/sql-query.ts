/** @module `sql_query`: one read-only statement, with its rows as objects and a text table. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { missing } from "../toolkit/missing.js";
import { sqlTool } from "./sql-env.js";
import { paramsField, sqlField } from "./sql-input.js";
import { SEAM_MARGIN_MS, SQL_LIMITS } from "./sql-limits.js";
import type { SqlCell, SqlColumn, SqlDialect, SqlQueryResult, SqlReader } from "./sql-port.js";
import { scanReadStatement } from "./statement-scan.js";
import { renderTable } from "./text-table.js";

const DIALECT_NAMES = { sqlite: "SQLite", postgres: "PostgreSQL" } as const;

/** Column names may repeat (`SELECT 1 AS a, 2 AS a`); as object keys they must not. */
export function uniqueNames(columns: readonly SqlColumn[]): string[] {
  const seen = new Set<string>();
  return columns.map((column) => {
    let name = column.name;
    for (let suffix = 2; seen.has(name); suffix++) name = `${column.name}_${suffix}`;
    seen.add(name);
    return name;
  });
}

export function sqlQuerySpec(dialect: SqlDialect) {
  return sqlTool({
    name: "sql_query",
    description:
      `Runs one read-only SQL statement (SELECT, WITH, VALUES, EXPLAIN${dialect === "postgres" ? ", SHOW, TABLE" : ", PRAGMA table_info"}) on the deployment's ${DIALECT_NAMES[dialect]} database and returns the rows as objects plus a text table. ` +
      `Returns at most maxRows rows (default ${SQL_LIMITS.defaultMaxRows}, up to ${SQL_LIMITS.maxRowsCeiling}) and says which limit cut the result. ` +
      "Call sql_schema first to learn the tables and columns. Writes are refused: use sql_write.",
    available: (env) => env.reader !== undefined,
    category: "data",
    effect: "read",
    approval: "policy",
    overrideReason: "the statement is the model's own SQL, so the host's policy decides whether it runs",
    cost: "io",
    input: z.object({
      sql: sqlField(dialect, "a query"),
      params: paramsField(dialect),
      maxRows: z
        .number()
        .int()
        .min(1)
        .max(SQL_LIMITS.maxRowsCeiling)
        .optional()
        .describe(
          `most rows to return, 1 to ${SQL_LIMITS.maxRowsCeiling}; ${SQL_LIMITS.defaultMaxRows} when omitted`,
        ),
    }),
    limits: { timeoutMs: SQL_LIMITS.queryTimeoutMs + SEAM_MARGIN_MS, outputBytes: 2 * 1024 * 1024 },
    async run(
      { sql, params = [], maxRows = SQL_LIMITS.defaultMaxRows },
      context,
      { reader = missing("a database reader") },
    ) {
      const verdict = scanReadStatement(sql, reader.dialect);
      if (!verdict.ok) {
        throw new ToolFailure("invalid_input", verdict.message, { details: { rule: verdict.rule } });
      }
      const result = await reader.query(sql, params, {
        maxRows,
        maxCellBytes: SQL_LIMITS.maxCellBytes,
        maxTotalBytes: SQL_LIMITS.maxTotalBytes,
        timeoutMs: SQL_LIMITS.queryTimeoutMs,
        signal: context.signal,
      });
      return queryOutput(reader, result, maxRows);
    },
  });
}

function queryOutput(reader: SqlReader, result: SqlQueryResult, maxRows: number) {
  const names = uniqueNames(result.columns);
  const rows = result.rows.map((row) =>
    // fromEntries defines own properties, so a column named __proto__ stays a column.
    Object.fromEntries(names.map((name, index) => [name, row[index] ?? null])),
  ) as Record<string, SqlCell>[];
  const truncated = result.stoppedBy !== null || result.cellsCut > 0;
  const notes: string[] = [];
  if (result.columns.length === 0) notes.push("The statement returned no columns.");
  else notes.push(`${rows.length} row${rows.length === 1 ? "" : "s"}.`);
  if (result.stoppedBy === "maxRows") notes.push(`Stopped at maxRows=${maxRows}: more rows exist.`);
  if (result.stoppedBy === "maxTotalBytes") {
    notes.push(`Stopped at the ${SQL_LIMITS.maxTotalBytes / 1024} KiB result limit: more rows exist.`);
  }
  if (result.cellsCut > 0) {
    notes.push(`${result.cellsCut} cell(s) longer than ${SQL_LIMITS.maxCellBytes} bytes were cut.`);
  }
  let table = "";
  if (result.columns.length > 0) {
    const rendered = renderTable(names, result.rows, SQL_LIMITS.tableChars);
    table = `${rendered.text}\n`;
    if (rendered.shown < rows.length)
      notes.push(`The table shows ${rendered.shown} of the rows; data has all.`);
  }
  return {
    content: `${table}${notes.join(" ")}`,
    data: {
      dialect: reader.dialect,
      columns: result.columns.map((column, index) => ({ name: names[index] as string, type: column.type })),
      rows,
      rowCount: rows.length,
      truncated,
      stoppedBy: result.stoppedBy,
      cellsCut: result.cellsCut,
    },
    truncated,
    // Rows hold whatever people and systems wrote into the database: fenced as untrusted text.
    provenance: { source: `sql_query (${reader.dialect})`, trusted: false },
  };
}
