/** @module A plain-text table of a few records, for the `content` a model reads beside the rows in `data`. */

export type Cell = string | number | null;
export type Row = Record<string, Cell>;

/** Longer cells are cut in the table only; `data` keeps them whole. */
const CELL_CHARS = 40;

function display(cell: Cell): string {
  // A line break or a bar inside a cell would break the table's shape.
  const text =
    cell === null
      ? ""
      : String(cell)
          .replace(/[\r\n\t]+/g, " ")
          .replaceAll("|", "/");
  return text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS - 1)}…` : text;
}

/** Renders `columns` of `rows` as a header, a rule and one line per row. */
export function renderRows(columns: readonly string[], rows: readonly Row[]): string {
  const lines = [columns, ...rows.map((row) => columns.map((column) => display(row[column] ?? null)))];
  const widths = columns.map((_, index) => Math.max(...lines.map((line) => line[index]?.length ?? 0)));
  const format = (line: readonly string[]) =>
    line
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join(" | ")
      .trimEnd();
  const [header, ...body] = lines.map(format);
  return [header, widths.map((width) => "-".repeat(width)).join("-+-"), ...body].join("\n");
}
