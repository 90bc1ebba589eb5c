/** @module The bounds every SQL tool call runs under. */

export const SQL_LIMITS = {
  /** Longest statement accepted, in characters. */
  maxSqlChars: 20_000,
  maxParams: 100,
  maxParamChars: 10_000,
  /** Rows returned when the call does not say. */
  defaultMaxRows: 100,
  /** The most rows a call may ask for. */
  maxRowsCeiling: 1_000,
  /** A longer cell is cut, and the result counts it. */
  maxCellBytes: 4 * 1024,
  /** Rows stop before their JSON passes this. */
  maxTotalBytes: 256 * 1024,
  queryTimeoutMs: 10_000,
  schemaTimeoutMs: 10_000,
  writeTimeoutMs: 30_000,
  /** The text table in `content` stops at this many characters; every row is still in `data`. */
  tableChars: 32 * 1024,
} as const;

/** The seam's own deadline sits past the adapter's, so the adapter stops the statement and says so first. */
export const SEAM_MARGIN_MS = 5_000;
