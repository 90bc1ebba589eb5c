/**
 * @module PostgreSQL audit store. Each event is inserted as it is recorded, and `record` resolves once it
 * is stored: a failed write rejects, so the seam keeps the event and offers it again.
 */
import type pg from "pg";
import type { Effect } from "../../declaration/effect.js";
import type { AuditEvent, AuditKind, AuditStore } from "../../ports/stores.js";

interface Row {
  tenant_id: string;
  id: string;
  at: number;
  kind: AuditKind;
  actor: string;
  run_id: string | null;
  tool_call_id: string | null;
  tool: string;
  tool_version: string | null;
  effect: Effect | null;
  outcome: AuditEvent["outcome"];
  duration_ms: number | null;
  approval_id: string | null;
  idempotency_key: string | null;
  approval: string | null;
  message: string | null;
}

const COLUMNS = `tenant_id, id, at, kind, actor, run_id, tool_call_id, tool, tool_version, effect, outcome,
  duration_ms, approval_id, idempotency_key, approval, message`;

const toEvent = (row: Row): AuditEvent => ({
  tenantId: row.tenant_id,
  id: row.id,
  at: row.at,
  kind: row.kind,
  actor: row.actor,
  runId: row.run_id ?? undefined,
  toolCallId: row.tool_call_id ?? undefined,
  tool: row.tool,
  toolVersion: row.tool_version ?? undefined,
  effect: row.effect ?? undefined,
  outcome: row.outcome,
  durationMs: row.duration_ms ?? undefined,
  approvalId: row.approval_id ?? undefined,
  idempotencyKey: row.idempotency_key ?? undefined,
  approval: row.approval ?? undefined,
  message: row.message ?? undefined,
});

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
      return rows.map(toEvent);
    },
  };
}
