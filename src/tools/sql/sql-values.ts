/** @module Turns driver values into JSON cells and collects rows under the row, cell and byte bounds. */
import type { SqlCell, SqlColumn, SqlQueryResult, SqlReadLimits, SqlStop } from "./sql-port.js";

/** Nested arrays and objects (PostgreSQL json, arrays) deeper than this are shown as text. */
const MAX_DEPTH = 16;

/** A byte string in PostgreSQL's hex form (`\xdeadbeef`), a notation both dialects' users recognise. */
function hexOf(bytes: Uint8Array, maxBytes: number): { text: string; cut: boolean } {
  const room = Math.max(0, Math.floor((maxBytes - 2) / 2));
  const shown = bytes.subarray(0, room);
  return { text: `\\x${Buffer.from(shown).toString("hex")}`, cut: shown.length < bytes.length };
}

/** Cuts text to at most `maxBytes` of UTF-8 without splitting a character. */
export function cutText(text: string, maxBytes: number): { text: string; cut: boolean } {
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return { text, cut: false };
  const decoded = new TextDecoder().decode(Buffer.from(text).subarray(0, Math.max(0, maxBytes - 3)));
  return { text: `${decoded.replace(/\uFFFD$/, "")}…`, cut: true };
}

/** Converts one value a driver returned; `cut` says whether it had to be shortened. */
export function toSqlCell(value: unknown, maxCellBytes: number): { cell: SqlCell; cut: boolean } {
  if (value instanceof Uint8Array) {
    const { text, cut } = hexOf(value, maxCellBytes);
    return { cell: text, cut };
  }
  const converted = convert(value, 0);
  if (typeof converted === "string") {
    const { text, cut } = cutText(converted, maxCellBytes);
    return { cell: text, cut };
  }
  if (converted !== null && typeof converted === "object") {
    const json = JSON.stringify(converted);
    if (Buffer.byteLength(json) > maxCellBytes) return { cell: cutText(json, maxCellBytes).text, cut: true };
  }
  return { cell: converted, cut: false };
}

function convert(value: unknown, depth: number): SqlCell {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "boolean":
    case "string":
      return value;
    case "number":
      // JSON has no NaN or Infinity; PostgreSQL floats can hold both.
      return Number.isFinite(value) ? value : String(value);
    case "bigint":
      // Exact when it fits a double, else the digits as text: never a silently rounded number.
      return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(value)
        : value.toString();
    case "object":
      break;
    default:
      return String(value);
  }
  if (value instanceof Uint8Array) return hexOf(value, Number.MAX_SAFE_INTEGER).text;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (depth >= MAX_DEPTH) return safeString(value);
  if (Array.isArray(value)) return value.map((item) => convert(item, depth + 1));
  if (Object.getPrototypeOf(value) === Object.prototype) {
    // fromEntries defines own properties: a JSON key "__proto__" stays a key, it does not set a prototype.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, convert(item, depth + 1)]));
  }
  return safeString(value);
}

function safeString(value: object): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Collects rows as a driver yields them and says when to stop: at `maxRows` (one row more was seen, so
 * more exist) or before the rows' JSON would pass `maxTotalBytes`.
 */
export class RowCollector {
  readonly rows: SqlCell[][] = [];
  stoppedBy: SqlStop | null = null;
  cellsCut = 0;
  #bytes = 2; // the enclosing brackets
  readonly #limits: Pick<SqlReadLimits, "maxRows" | "maxCellBytes" | "maxTotalBytes">;

  constructor(limits: Pick<SqlReadLimits, "maxRows" | "maxCellBytes" | "maxTotalBytes">) {
    this.#limits = limits;
  }

  /** Takes one row; false means stop reading (the row was not kept). */
  add(values: readonly unknown[]): boolean {
    if (this.stoppedBy !== null) return false;
    if (this.rows.length >= this.#limits.maxRows) {
      this.stoppedBy = "maxRows";
      return false;
    }
    let cut = 0;
    const row = values.map((value) => {
      const converted = toSqlCell(value, this.#limits.maxCellBytes);
      if (converted.cut) cut++;
      return converted.cell;
    });
    const bytes = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (this.#bytes + bytes > this.#limits.maxTotalBytes) {
      this.stoppedBy = "maxTotalBytes";
      return false;
    }
    this.#bytes += bytes;
    this.cellsCut += cut;
    this.rows.push(row);
    return true;
  }

  result(columns: SqlColumn[]): SqlQueryResult {
    return { columns, rows: this.rows, stoppedBy: this.stoppedBy, cellsCut: this.cellsCut };
  }
}
