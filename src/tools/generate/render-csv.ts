/** @module CSV bytes from columns and rows: RFC 4180 quoting and CRLF, so the same table is the same bytes. */
import { stringify } from "csv-stringify/sync";

export type Cell = string | number | boolean | null;

export function renderCsv(columns: readonly string[], rows: readonly (readonly Cell[])[]): Uint8Array {
  const text = stringify(
    [columns as string[], ...rows.map((row) => row.map((cell) => (cell === null ? "" : String(cell))))],
    {
      record_delimiter: "windows",
      // A lone LF is not the record delimiter, so the library would leave it bare; every parser splits on it.
      quoted_match: /[\r\n]/,
    },
  );
  return new TextEncoder().encode(text);
}
