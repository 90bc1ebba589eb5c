/**
 * @module PostgreSQL audit store. Each event is inserted as it is recorded, and `record` resolves once it
 * is stored: a failed write rejects, so the seam keeps the event and offers it again.
 */
import type pg from "pg";
import type { AuditEvent, AuditStore } from "../../ports/stores.js";
import { auditEventOf, AUDIT_COLUMNS as COLUMNS, type AuditRow as Row } from "../sql/rows.js";

/** An event's sixteen column values, in AUDIT_COLUMNS order. */
export const auditParams = (event: AuditEvent): unknown[] => [
  event.tenantId,
  event.id,
  event.at,
  event.kind,
  event.actor,
  event.runId ?? null,
  event.toolCallId ?? null,
  event.tool,
  event.toolVersion ?? null,
  event.effect ?? null,
  event.outcome,
  event.durationMs ?? null,
  event.approvalId ?? null,
  event.idempotencyKey ?? null,
  event.approval ?? null,
  event.message ?? null,
];

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

export function createPostgresAuditStore(pool: pg.Pool, schema: string): AuditStore {
  const table = `${schema}.audit`;
  return {
    async record(event) {
      await insertAuditEvent(pool, schema, event);
    },
    async list({ tenantId, limit, tool, since, before }) {
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
