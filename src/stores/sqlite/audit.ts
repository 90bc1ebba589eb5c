/** @module SQLite audit store: one prepared insert per event, read back newest first. */
import type Database from "better-sqlite3";
import type { Effect } from "../../declaration/effect.js";
import type { AuditEvent, AuditKind, AuditStore } from "../types.js";

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

const toParams = (event: AuditEvent) => ({
  tenantId: event.tenantId,
  id: event.id,
  at: event.at,
  kind: event.kind,
  actor: event.actor,
  runId: event.runId ?? null,
  toolCallId: event.toolCallId ?? null,
  tool: event.tool,
  toolVersion: event.toolVersion ?? null,
  effect: event.effect ?? null,
  outcome: event.outcome,
  durationMs: event.durationMs ?? null,
  approvalId: event.approvalId ?? null,
  idempotencyKey: event.idempotencyKey ?? null,
  approval: event.approval ?? null,
  message: event.message ?? null,
});

export function createSqliteAuditStore(db: Database.Database): AuditStore {
  // A re-sent event (same tenant and id) is the same event: keep the first rather than fail the caller.
  const insert = db.prepare<[ReturnType<typeof toParams>]>(
    `INSERT INTO audit (${COLUMNS})
     VALUES (@tenantId, @id, @at, @kind, @actor, @runId, @toolCallId, @tool, @toolVersion, @effect, @outcome,
             @durationMs, @approvalId, @idempotencyKey, @approval, @message)
     ON CONFLICT (tenant_id, id) DO NOTHING`,
  );
  // NULL parameters switch a filter off, so one statement serves every combination; rowid orders events
  // recorded in the same millisecond the way they were recorded.
  const list = db.prepare<
    [{ tenantId: string; tool: string | null; since: number | null; limit: number }],
    Row
  >(
    `SELECT ${COLUMNS} FROM audit
     WHERE tenant_id = @tenantId AND (@tool IS NULL OR tool = @tool) AND (@since IS NULL OR at >= @since)
     ORDER BY at DESC, rowid DESC LIMIT @limit`,
  );

  return {
    record(event) {
      insert.run(toParams(event));
    },
    async list({ tenantId, limit, tool, since }) {
      return list
        .all({ tenantId, tool: tool ?? null, since: since ?? null, limit: limit ?? 100 })
        .map(toEvent);
    },
  };
}
