/** @module Column keys from a header row, and the compact table a model reads first. */

const PREVIEW_ROWS = 10;
const PREVIEW_COLUMNS = 8;
const PREVIEW_CELL_CHARS = 40;

/** Header names as object keys: a blank name becomes `column_N`, a repeated one gets `_2`, `_3` … */
export function headerKeys(header: readonly string[]): string[] {
  const seen = new Set<string>();
  return header.map((raw, index) => {
    const base = raw.trim() === "" ? `column_${index + 1}` : raw;
    let key = base;
    for (let suffix = 2; seen.has(key); suffix++) key = `${base}_${suffix}`;
    seen.add(key);
    return key;
  });
}

/** A Markdown table of the first rows and columns; `data` has everything, this is for a quick look. */
export function previewTable(
  columns: readonly string[] | undefined,
  rows: readonly (Record<string, string> | readonly string[])[],
): string {
  if (rows.length === 0 && !columns) return "";
  const shown = rows.slice(0, PREVIEW_ROWS).map((row) => (Array.isArray(row) ? row : Object.values(row)));
  const width = columns?.length ?? shown.reduce((widest, row) => Math.max(widest, row.length), 0);
  const visible = Math.min(width, PREVIEW_COLUMNS);
  const names = columns ?? Array.from({ length: width }, (_, index) => `${index + 1}`);
  const line = (cells: readonly string[]) =>
    `| ${Array.from({ length: visible }, (_, index) => cell(cells[index] ?? "")).join(" | ")}${visible < width ? " | …" : ""} |`;
  const table = [
    line(names),
    `|${" --- |".repeat(visible)}${visible < width ? " --- |" : ""}`,
    ...shown.map(line),
  ];
  if (rows.length > shown.length) table.push(`(first ${shown.length} of ${rows.length} rows shown)`);
  return table.join("\n");
}

function cell(value: string): string {
  const flat = value.replace(/\s+/g, " ").replace(/\|/g, "\\|");
  return flat.length > PREVIEW_CELL_CHARS ? `${flat.slice(0, PREVIEW_CELL_CHARS - 1)}…` : flat;
}
