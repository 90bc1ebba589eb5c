/**
 * @module SQLite audit store. Events are written behind: buffered and inserted in one transaction every
 * few milliseconds (or at once past a batch size), because a commit per event measured as a third of the
 * cost of an idempotent write call. Reads, `flush()`, closing and process exit drain the buffer first; a
 * hard kill loses at most one interval. `flushIntervalMs: 0` writes each event synchronously instead.
 * An event that cannot be written (a full disk) is not dropped silently: it stays in the buffer, retried
 * once a second (not at every event), `failure()` says why until a write succeeds, and what is still
 * unwritten at exit is printed whole to stderr. The buffer is bounded: past `maxBuffered` events the
 * oldest is printed whole to stderr and let go, so a long outage costs neither unbounded memory nor one
 * failing transaction per event.
 */
import type Database from "better-sqlite3";
import type { AuditEvent, AuditStore } from "../../ports/stores.js";
import { auditEventOf, auditParams, AUDIT_COLUMNS as COLUMNS, type AuditRow as Row } from "../sql/rows.js";

// Positional, in COLUMNS order: a named parameter is bound by a property lookup each, 16 per event.
type Params = ReturnType<typeof auditParams>;

function prepareInsert(db: Database.Database): (event: AuditEvent) => void {
  const insert = db.prepare<Params>(
    `INSERT INTO audit (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (event) => {
    insert.run(...auditParams(event));
  };
}

export interface SqliteAuditOptions {
  /** How long an event may wait in the buffer; 0 inserts each event as it is recorded. Default 20 ms. */
  flushIntervalMs?: number;
  /** Buffered events that trigger an immediate flush. Default 256. */
  maxBatch?: number;
  /** Told when a background flush fails (the events are kept and retried); logs to stderr by default. */
  onError?: (error: unknown) => void;
  /** Events kept while writes fail; past it the oldest go to stderr. Default 10,000. */
  maxBuffered?: number;
}

export interface SqliteAuditStore extends AuditStore {
  /** Writes every buffered event now; throws (keeping them) when it cannot. */
  flush(): void;
  failure(): unknown;
  /** Flushes and stops the timer; call before closing the database. Events it cannot write are printed at exit. */
  close(): void;
  /** The events recorded and not yet written. */
  unwritten(): AuditEvent[];
  /**
   * Inserts one event at once, past the buffer, inside whatever transaction is open on the database: how
   * a call's event goes in with the completion or the parking it belongs to.
   */
  insertNow(event: AuditEvent): void;
}

/** Stores with unflushed events, drained synchronously if the process exits without closing them. */
const open = new Set<SqliteAuditStore>();
let exitHookInstalled = false;

export function createSqliteAuditStore(
  db: Database.Database,
  options: SqliteAuditOptions = {},
): SqliteAuditStore {
  const flushIntervalMs = options.flushIntervalMs ?? 20;
  const maxBatch = options.maxBatch ?? 256;
  const maxBuffered = options.maxBuffered ?? 10_000;
  const insert = prepareInsert(db);
  // NULL parameters switch a filter off, so one statement serves every combination; rowid orders events
  // recorded in the same millisecond the way they were recorded.
  // A page ends at an event; the next starts after it: earlier milliseconds, or the same one and recorded before.
  const list = db.prepare<
    [
      {
        tenantId: string;
        tool: string | null;
        since: number | null;
        beforeAt: number | null;
        beforeId: string | null;
        limit: number;
      },
    ],
    Row
  >(
    `SELECT ${COLUMNS} FROM audit
     WHERE tenant_id = @tenantId AND (@tool IS NULL OR tool = @tool) AND (@since IS NULL OR at >= @since)
       AND (@beforeAt IS NULL OR at < @beforeAt OR (at = @beforeAt AND rowid < (
         SELECT rowid FROM audit WHERE tenant_id = @tenantId AND at = @beforeAt AND id = @beforeId)))
     ORDER BY at DESC, rowid DESC LIMIT @limit`,
  );
  const insertAll = db.transaction((events: AuditEvent[]) => {
    for (const event of events) insert(event);
  });

  let buffer: AuditEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let lastError: unknown;
  const retryLater = () => {
    if (timer) return;
    timer = setTimeout(flushInBackground, Math.max(flushIntervalMs, 1_000));
    timer.unref();
  };
  // A flush nobody waits on has no caller to throw to: report, keep the events, and try again later.
  const flushInBackground = () => {
    try {
      store.flush();
    } catch (error) {
      onError(error);
      retryLater();
    }
  };
  const onError =
    options.onError ?? ((error: unknown) => console.error("toolreg: audit flush failed", error));
  const store: SqliteAuditStore = {
    record(event) {
      buffer.push(event);
      if (buffer.length > maxBuffered) {
        const oldest = buffer.shift();
        console.error(JSON.stringify({ unwrittenAuditEvent: oldest, reason: "audit buffer full" }));
      }
      // While writes fail, the retry timer alone tries again: not one failing transaction per event.
      if (lastError !== undefined) retryLater();
      else if (flushIntervalMs === 0 || buffer.length >= maxBatch) flushInBackground();
      else if (!timer) {
        timer = setTimeout(flushInBackground, flushIntervalMs);
        timer.unref();
      }
    },
    async list({ tenantId, limit, tool, since, before }) {
      // What is stored can be read while what is not cannot be written yet (a full disk).
      flushInBackground();
      return list
        .all({
          tenantId,
          tool: tool ?? null,
          since: since ?? null,
          beforeAt: before?.at ?? null,
          beforeId: before?.id ?? null,
          limit: limit ?? 100,
        })
        .map(auditEventOf);
    },
    flush() {
      clearTimeout(timer);
      timer = undefined;
      if (buffer.length === 0) return;
      const events = buffer;
      buffer = [];
      try {
        insertAll.immediate(events);
        lastError = undefined;
      } catch (error) {
        // Keep the events for the next attempt (another connection may hold the lock past busy_timeout,
        // or the disk may be full until someone frees it).
        buffer = events.concat(buffer);
        lastError = error;
        throw error;
      }
    },
    failure() {
      return buffer.length > 0 ? lastError : undefined;
    },
    insertNow(event) {
      insert(event);
    },
    close() {
      try {
        store.flush();
        open.delete(store);
      } catch (error) {
        // Kept among the open stores: at exit, what is still unwritten is printed whole.
        onError(error);
        clearTimeout(timer);
        timer = undefined;
      }
    },
    unwritten() {
      return [...buffer];
    },
  };
  open.add(store);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const pending of open) {
        try {
          pending.flush();
        } catch (error) {
          // The trail cannot take them; stderr can, whole, for an operator to load later.
          const events = pending.unwritten();
          console.error(`toolreg: ${events.length} audit events could not be written at exit`, error);
          for (const event of events) console.error(JSON.stringify({ unwrittenAuditEvent: event }));
        }
      }
    });
  }
  return store;
}
