/**
 * @module The port for a toolkit's own records: what a toolkit must remember of its calls when the vendor
 * keeps no list a tool could read back (the e-mail toolkit's sent messages and what the relay answered, for
 * a relay that has no API). A record belongs to one toolkit, tenant and principal; every method takes that
 * key, which a tool reads from its context and never from the model's input, so no call reaches another
 * principal's records.
 */

/** Whose records: the toolkit's id (`email`), the tenant, the principal. */
export interface ToolkitRecordOwner {
  toolkit: string;
  tenantId: string;
  principalId: string;
}

export interface ToolkitRecordKey extends ToolkitRecordOwner {
  /** The toolkit's own id for the record (letters, digits, `._:-`, at most 128). */
  id: string;
}

export interface ToolkitRecord extends ToolkitRecordKey {
  /** Milliseconds since the epoch, when it was added. */
  createdAt: number;
  updatedAt: number;
  /** JSON, at most `TOOLKIT_RECORD_LIMITS.dataBytes` serialised. */
  data: unknown;
  /** 1 when added; each update adds one. */
  version: number;
}

export interface ToolkitRecordPage {
  records: ToolkitRecord[];
  /** Passed back as `after` for the next page; absent on the last. */
  next?: string;
}

export interface ToolkitRecordStore {
  /** Adds a record at version 1; false (and nothing written) when the key is taken. */
  add(record: ToolkitRecordKey & { data: unknown; at: number }): Promise<boolean>;
  /**
   * Replaces a record's data over the version the writer read; false when the record is gone or another
   * write came first (the caller reads again).
   */
  update(record: ToolkitRecordKey & { data: unknown; version: number; at: number }): Promise<boolean>;
  get(key: ToolkitRecordKey): Promise<ToolkitRecord | undefined>;
  /** The owner's records, newest first (by creation, then id), `limit` (1–100) at a time. */
  list(owner: ToolkitRecordOwner & { limit: number; after?: string }): Promise<ToolkitRecordPage>;
  /** Deletes the records created before `before`; how many went. */
  purge(request: { before: number }): Promise<number>;
}

export const TOOLKIT_RECORD_LIMITS = { idChars: 128, dataBytes: 64 * 1024, pageSize: 100 } as const;

/** How long a record is kept: a quarter, long enough to answer "what did the agent send last month". */
export const TOOLKIT_RECORD_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

const RECORD_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/**
 * The record as it is stored: its id checked and its data as JSON within the size cap. Throws a TypeError
 * (a toolkit's bug, never a model's input) before anything is written.
 */
export function checkedRecordData(record: { id: string; data: unknown }): string {
  if (record.id.length > TOOLKIT_RECORD_LIMITS.idChars || !RECORD_ID.test(record.id))
    throw new TypeError(
      `a toolkit record's id is letters, digits and ._:- (at most ${TOOLKIT_RECORD_LIMITS.idChars})`,
    );
  const json = JSON.stringify(record.data);
  if (json === undefined) throw new TypeError("a toolkit record's data must be JSON");
  if (Buffer.byteLength(json, "utf8") > TOOLKIT_RECORD_LIMITS.dataBytes)
    throw new TypeError(
      `a toolkit record's data is at most ${TOOLKIT_RECORD_LIMITS.dataBytes} bytes of JSON`,
    );
  return json;
}

/** Where a page ended: the last record's creation time and id, opaque to callers. */
export function recordCursor(record: { createdAt: number; id: string }): string {
  return Buffer.from(JSON.stringify([record.createdAt, record.id]), "utf8").toString("base64url");
}

/** The position `after` names; undefined for a cursor no store wrote (the list starts over from the newest). */
export function parseRecordCursor(after: string | undefined): { createdAt: number; id: string } | undefined {
  if (after === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(after, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && Number.isSafeInteger(parsed[0]) && typeof parsed[1] === "string")
      return { createdAt: parsed[0] as number, id: parsed[1] };
  } catch {
    // Not one of ours: treated as no cursor.
  }
  return undefined;
}

/** A page size within 1–100. */
export function recordPageSize(limit: number): number {
  return Math.min(Math.max(Math.trunc(limit) || 1, 1), TOOLKIT_RECORD_LIMITS.pageSize);
}

/**
 * A page of `size` from the owner's records past the cursor, newest first: an adapter reads `size + 1`, and
 * the one more says a next page exists.
 */
export function recordPage(newestFirst: readonly ToolkitRecord[], size: number): ToolkitRecordPage {
  const records = newestFirst.slice(0, size);
  const last = records.at(-1);
  return newestFirst.length > size && last ? { records, next: recordCursor(last) } : { records };
}
