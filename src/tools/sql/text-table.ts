/** @module A compact text table of query rows, for the envelope's `content`. */
import type { SqlCell } from "./sql-port.js";

/** Wider cells are cut in the table only; `data` keeps them whole. */
const CELL_CHARS = 40;

function display(cell: SqlCell): string {
  const text = cell === null ? "NULL" : typeof cell === "object" ? JSON.stringify(cell) : String(cell);
  const flat = text.replace(/\r?\n/g, "↵").replace(/[\t|]/g, (char) => (char === "|" ? "¦" : " "));
  return flat.length > CELL_CHARS ? `${flat.slice(0, CELL_CHARS - 1)}…` : flat;
}

/** Renders a header and as many rows as fit in `maxChars`; `shown` says how many made it. */
export function renderTable(
  names: readonly string[],
  rows: readonly SqlCell[][],
  maxChars: number,
): { text: string; shown: number } {
  const header = names.map((name) => display(name));
  const widths = header.map((name) => name.length);
  const cells: string[][] = [];
  for (const row of rows) {
    const line = row.map(display);
    const grown = widths.map((width, column) => Math.max(width, (line[column] ?? "").length));
    // Every line is padded to the widest cell of its column, so the table's size is lines × line width.
    const lineChars = grown.reduce((sum, width) => sum + width + 3, 0);
    if ((cells.length + 3) * lineChars > maxChars) break;
    grown.forEach((width, column) => {
      widths[column] = width;
    });
    cells.push(line);
  }
  const format = (line: readonly string[]) =>
    line
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join(" | ")
      .trimEnd();
  const lines = [format(header), widths.map((width) => "-".repeat(width)).join("-+-"), ...cells.map(format)];
  return { text: lines.join("\n"), shown: cells.length };
}
