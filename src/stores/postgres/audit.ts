/**
 * @module PostgreSQL audit store. A read's event waits up to 20 ms (or 256 events) to go in with others in
 * one INSERT, so a busy catalogue does not pay a round trip per read; every other event is inserted as it
 * is recorded, after the reads that wait, and `record` resolves once it is stored — a failed write rejects,
 * so the seam keeps the event and offers it again. (The events of calls that ran under a key, and of
 * approval requests, are written by the idempotency and approval stores with the change itself.) Reads'
 * events that cannot be written stay buffered, offered again each second, and `failure()` says why.
 */
import type pg from "pg";
import type { AuditEvent, AuditStore } from "../../ports/stores.js";
import { auditEventOf, auditParams, AUDIT_COLUMNS as COLUMNS, type AuditRow as Row } from "../sql/rows.js";

/** `$first` … `$first+15`: an event's placeholders, for a statement that has others before them. */
export const auditPlaceholders = (first: number): string =>
  Array.from({ length: 16 }, (_, index) => `$${first + index}`).join(", ");

/** Inserts one event on `client`, inside the transaction it has open (or alone, on a pool). */
export async function insertAuditEvent(
  client: pg.Pool | pg.PoolClient,
  schema: string,
  event: AuditEvent,
): Promise<void> {
  await client.query(
    `INSERT INTO ${schema}.audit (${COLUMNS}) VALUES (${auditPlaceholders(1)})`,
    auditParams(event),
  );
}

/** Writes what the audit store holds back, if it can; what it cannot stays held and is offered again. */
export async function flushQuietly(audit: AuditStore): Promise<void> {
  try {
    await audit.flush?.();
  } catch {}
}

export interface PostgresAuditOptions {
  /** How long a read's event may wait to go in with others; 0 inserts each as recorded. Default 20 ms. */
  flushIntervalMs?: number;
  /** Waiting events that are inserted at once. Default 256. */
  maxBatch?: number;
  /** Told when a background insert fails (the events are kept and offered again); stderr by default. */
  onError?: (error: unknown) => void;
}

export interface PostgresAuditStore extends AuditStore {
  /** Inserts the waiting reads' events now; rejects (keeping them) when it cannot. */
  flush(): Promise<void>;
  failure(): unknown;
}

/** Past this many waiting events the oldest is dropped, and printed whole to stderr. */
const MAX_BUFFERED = 10_000;

export function createPostgresAuditStore(
  pool: pg.Pool,
  schema: string,
  options: PostgresAuditOptions = {},
): PostgresAuditStore {
  const table = `${schema}.audit`;
  const flushIntervalMs = options.flushIntervalMs ?? 20;
  const maxBatch = options.maxBatch ?? 256;
  const onError =
    options.onError ?? ((error: unknown) => console.error("toolreg: audit insert failed", error));
  let buffer: AuditEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let lastError: unknown;
  let inserting: Promise<void> | undefined;

  const schedule = (ms: number) => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      flush().catch((error: unknown) => {
        onError(error);
        schedule(1_000);
      });
    }, ms);
    timer.unref();
  };
  const insertMany = async (events: AuditEvent[]) => {
    const rows = events.map((_, index) => `(${auditPlaceholders(index * 16 + 1)})`).join(", ");
    await pool.query(`INSERT INTO ${table} (${COLUMNS}) VALUES ${rows}`, events.flatMap(auditParams));
  };
  // One insert at a time, so the trail keeps the order events were recorded in.
  const flush = async (): Promise<void> => {
    while (inserting) await inserting.catch(() => {});
    clearTimeout(timer);
    timer = undefined;
    if (buffer.length === 0) return;
    const events = buffer.splice(0, buffer.length);
    inserting = insertMany(events).then(
      () => {
        lastError = undefined;
      },
      (error: unknown) => {
        buffer = events.concat(buffer);
        lastError = error;
        throw error;
      },
    );
    try {
      await inserting;
    } finally {
      inserting = undefined;
    }
  };
  const waits = (event: AuditEvent) => event.kind === "tool-call" && event.effect === "read";

  return {
    record(event) {
      if (flushIntervalMs > 0 && waits(event)) {
        buffer.push(event);
        if (buffer.length > MAX_BUFFERED) {
          console.error(JSON.stringify({ unwrittenAuditEvent: buffer.shift(), reason: "audit buffer full" }));
        }
        // While inserts fail, the retry timer alone tries again: not one failing insert per read.
        if (lastError === undefined && buffer.length >= maxBatch) schedule(0);
        else schedule(lastError === undefined ? flushIntervalMs : 1_000);
        return;
      }
      return (async () => {
        // The reads recorded before it go in first; if they cannot, they stay buffered and this one goes on.
        await flush().catch(() => {});
        await insertAuditEvent(pool, schema, event);
      })();
    },
    flush,
    failure: () => (buffer.length > 0 ? lastError : undefined),
    async list({ tenantId, limit, tool, since, before }) {
      // What is stored can be read while what waits cannot be written yet.
      await flush().catch(() => {});
      // NULL parameters switch a filter off. A page ends at an event; the next starts after it: earlier
      // milliseconds, or the same one and recorded before (seq).
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${table}
         WHERE tenant_id = $1 AND ($2::text IS NULL OR tool = $2) AND ($3::bigint IS NULL OR at >= $3)
           AND ($4::bigint IS NULL OR at < $4 OR (at = $4 AND seq < (
             SELECT seq FROM ${table} WHERE tenant_id = $1 AND at = $4 AND id = $5 LIMIT 1)))
         ORDER BY at DESC, seq DESC LIMIT $6`,
        [tenantId, tool ?? null, since ?? null, before?.at ?? null, before?.id ?? null, limit ?? 100],
      );
      return rows.map(auditEventOf);
    },
  };
}
