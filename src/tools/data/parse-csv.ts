/** @module `parse_csv`: CSV text to rows, bounded in input, rows, columns and output, with the bounds reported. */
import { CsvError, parse } from "csv-parse/sync";
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { headerKeys, previewTable } from "./csv-shape.js";
import { dataTool } from "./data-env.js";

export const PARSE_CSV_LIMITS = {
  /** Characters of CSV text accepted. */
  inputChars: 1_048_576,
  /** Rows returned when `maxRows` is not given, and the most it may ask for. */
  defaultRows: 1_000,
  maxRows: 10_000,
  /** Columns kept per row; the rest are dropped and reported. */
  columns: 200,
  /** Bytes of row JSON returned; rows past it are dropped and reported. */
  outputBytes: 256 * 1024,
} as const;

/** Which bound cut the result short. */
export type CsvLimit = "maxRows" | "columns" | "outputBytes";

const input = z.object({
  csv: z.string().max(PARSE_CSV_LIMITS.inputChars).describe("the CSV itself, as text (not a path or URL)"),
  delimiter: z
    .string()
    .length(1)
    .refine((value) => !/["\r\n]/.test(value), "cannot be a quote or a line break")
    .optional()
    .describe('one character separating fields; "," when omitted (use "\\t" for TSV, ";" for European CSV)'),
  header: z
    .boolean()
    .optional()
    .describe("whether the first row names the columns (rows become objects); true when omitted"),
  maxRows: z
    .number()
    .int()
    .min(1)
    .max(PARSE_CSV_LIMITS.maxRows)
    .optional()
    .describe(`the most data rows to return; ${PARSE_CSV_LIMITS.defaultRows} when omitted`),
});

export const parseCsvSpec = dataTool({
  name: "parse_csv",
  description:
    "Parses CSV (or TSV, or another one-character delimiter) given as text into rows: objects keyed by the header row, or arrays of fields without one. Values stay strings exactly as written (no number or date guessing). Pass the CSV itself, never a path or URL. Limits: 1 MiB of text, 10,000 rows, 200 columns and 256 KiB of rows; whichever cuts the result short is named in the result.",
  category: "data",
  effect: "read",
  input,
  limits: { outputBytes: 512 * 1024 },
  run({ csv, delimiter = ",", header = true, maxRows = PARSE_CSV_LIMITS.defaultRows }) {
    const records = parseRecords(csv, delimiter, maxRows + (header ? 2 : 1));
    const limitedBy = new Set<CsvLimit>();
    const headerRecord = header ? records.shift() : undefined;
    if (records.length > maxRows) {
      records.length = maxRows;
      limitedBy.add("maxRows");
    }
    const width = records.reduce(
      (widest, record) => Math.max(widest, record.length),
      headerRecord?.length ?? 0,
    );
    if (width > PARSE_CSV_LIMITS.columns) limitedBy.add("columns");
    const columns = headerRecord ? headerKeys(headerRecord.slice(0, PARSE_CSV_LIMITS.columns)) : undefined;

    const rows: (Record<string, string> | string[])[] = [];
    let bytes = 0;
    for (const record of records) {
      const fields = record.slice(0, PARSE_CSV_LIMITS.columns);
      // Object.fromEntries defines own properties, so a column named "__proto__" stays a column.
      const row = columns
        ? Object.fromEntries(columns.map((key, index) => [key, fields[index] ?? ""]))
        : fields;
      bytes += Buffer.byteLength(JSON.stringify(row)) + 1;
      if (bytes > PARSE_CSV_LIMITS.outputBytes) {
        limitedBy.add("outputBytes");
        break;
      }
      rows.push(row);
    }

    const truncated = limitedBy.size > 0;
    const columnCount = Math.min(width, PARSE_CSV_LIMITS.columns);
    const stopped = truncated ? ` Truncated by ${[...limitedBy].join(", ")}.` : "";
    const summary = `${rows.length} row${rows.length === 1 ? "" : "s"} × ${columnCount} column${columnCount === 1 ? "" : "s"}.${stopped}`;
    return {
      content: [summary, previewTable(columns, rows)].filter(Boolean).join("\n\n"),
      data: {
        columns: columns ?? null,
        rows,
        rowCount: rows.length,
        truncated,
        limitedBy: [...limitedBy],
      },
      truncated,
    };
  },
});

/** Up to `count` records; malformed CSV is the caller's input, so it is refused naming the line. */
function parseRecords(csv: string, delimiter: string, count: number): string[][] {
  try {
    return parse(csv, {
      delimiter,
      bom: true,
      skip_empty_lines: true,
      to: count,
      max_record_size: PARSE_CSV_LIMITS.inputChars,
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines;
    throw new ToolFailure("invalid_input", `csv is malformed at line ${line ?? "?"}: ${error.message}`, {
      details: { field: "csv", line, reason: error.code },
    });
  }
}
