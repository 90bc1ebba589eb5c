/**
 * @module PostgreSQL audit store. Each event is inserted as it is recorded, and `record` resolves once it
 * is stored: a failed write rejects, so the seam keeps the event and offers it again.
 */
import type pg from "pg";
import type { AuditStore } from "../../ports/stores.js";
import { auditEventOf, AUDIT_COLUMNS as COLUMNS, type AuditRow as Row } from "../sql/rows.js";

export function createPostgresAuditStore(pool: pg.Pool, schema: string): AuditStore {
  const table = `${schema}.audit`;
  return {
    async record(event) {
      await pool.query(
        `INSERT INTO ${table} (${COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
        [
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
        ],
      );
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
