/** @module SQLite approval store: the first decision to commit wins, across every connection to the file. */
import type Database from "better-sqlite3";
import {
  decideTransition,
  finishTransition,
  pendingApproval,
  retryTransition,
} from "../../ports/store-transitions.js";
import type {
  ApprovalRecord,
  ApprovalStatus,
  ApprovalStore,
  AuditEvent,
  DecideInput,
  FinishInput,
  NewApproval,
  RetryInput,
} from "../../ports/stores.js";
import {
  approvalRecordOf,
  APPROVAL_COLUMNS as COLUMNS,
  jsonText,
  type ApprovalRow as Row,
} from "../sql/rows.js";
import type { SqliteAuditStore } from "./audit.js";

const toRecord = (row: Row): ApprovalRecord => approvalRecordOf(row, jsonText);

const toParams = (record: ApprovalRecord) => ({
  ...record,
  input: record.input === undefined ? null : JSON.stringify(record.input),
  decidedBy: record.decidedBy ?? null,
  decidedAt: record.decidedAt ?? null,
  note: record.note ?? null,
  result: record.result === undefined ? null : JSON.stringify(record.result),
  finishedAt: record.finishedAt ?? null,
  interruption: record.interruption === undefined ? null : JSON.stringify(record.interruption),
  retriedBy: record.retriedBy ?? null,
  retriedAt: record.retriedAt ?? null,
  answers: record.answers === undefined ? null : JSON.stringify(record.answers),
});

/** With `audit` (the audit store on the same file), a request's event is inserted in the parking's transaction. */
export function createSqliteApprovalStore(
  db: Database.Database,
  options: { audit?: SqliteAuditStore } = {},
): ApprovalStore {
  const { audit } = options;
  const select = db.prepare<[string, string], Row>(
    `SELECT ${COLUMNS} FROM approvals WHERE tenant_id = ? AND id = ?`,
  );
  const insert = db.prepare<[ReturnType<typeof toParams>]>(
    `INSERT INTO approvals (${COLUMNS})
     VALUES (@tenantId, @id, @toolName, @toolVersion, @effect, @definitionHash, @input, @description,
             @requestedBy, @runId, @toolCallId, @idempotencyKey, @fingerprint, @status, @createdAt,
             @expiresAt, @decidedBy, @decidedAt, @note, @result, @finishedAt, @interruption, @retriedBy,
             @retriedAt, @answers)
     ON CONFLICT (tenant_id, id) DO NOTHING`,
  );
  // Only the fields a decision or a finish may change; what was asked stays as it was asked.
  const update = db.prepare<[ReturnType<typeof toParams>]>(
    `UPDATE approvals SET status = @status, decided_by = @decidedBy, decided_at = @decidedAt, note = @note,
       result = @result, finished_at = @finishedAt, interruption = @interruption, retried_by = @retriedBy,
       retried_at = @retriedAt, answers = @answers
     WHERE tenant_id = @tenantId AND id = @id`,
  );
  // -1 is SQLite's "no limit".
  const listAll = db.prepare<[string, number], Row>(
    `SELECT ${COLUMNS} FROM approvals WHERE tenant_id = ? ORDER BY created_at DESC, id LIMIT ?`,
  );
  const listByStatus = db.prepare<[string, ApprovalStatus, number], Row>(
    `SELECT ${COLUMNS} FROM approvals WHERE tenant_id = ? AND status = ? ORDER BY created_at DESC, id LIMIT ?`,
  );
  const newestForKey = db.prepare<[string, string], Row>(
    `SELECT ${COLUMNS} FROM approvals WHERE tenant_id = ? AND idempotency_key = ?
     ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
  const listApproved = db.prepare<[number], Row>(
    `SELECT ${COLUMNS} FROM approvals WHERE status = 'approved' ORDER BY decided_at LIMIT ?`,
  );
  const interrupt = db.prepare<[string, string, string]>(
    `UPDATE approvals SET status = 'interrupted', interruption = ?
     WHERE tenant_id = ? AND id = ? AND status = 'approved'`,
  );
  const expire = db.prepare<[number]>(
    "UPDATE approvals SET status = 'expired' WHERE status = 'pending' AND expires_at <= ?",
  );
  // Served by approvals_by_expiry (status, expires_at).
  const waiting = db.prepare<[number], { count: number; oldest: number | null }>(
    "SELECT count(*) AS count, min(created_at) AS oldest FROM approvals WHERE status = 'pending' AND expires_at > ?",
  );

  const decide = db.transaction((input: DecideInput) => {
    const row = select.get(input.tenantId, input.id);
    const { outcome, write } = decideTransition(row && toRecord(row), input);
    if (write) update.run(toParams(write));
    return outcome;
  });
  const finish = db.transaction((input: FinishInput) => {
    const row = select.get(input.tenantId, input.id);
    const finished = finishTransition(row && toRecord(row), input);
    if (finished) update.run(toParams(finished));
    return finished !== undefined;
  });
  const retry = db.transaction((input: RetryInput) => {
    const row = select.get(input.tenantId, input.id);
    const { outcome, write } = retryTransition(row && toRecord(row), input);
    if (write) update.run(toParams(write));
    return outcome;
  });
  const insertRecord = (record: NewApproval): ApprovalRecord => {
    const stored = pendingApproval(record);
    // DO NOTHING plus a check, rather than catching a constraint error by its message.
    if (insert.run(toParams(stored)).changes === 0) throw new Error(`approval ${record.id} already exists`);
    return toRecord(select.get(record.tenantId, record.id)!);
  };
  // Read and insert under one write lock: duplicates of a call arriving at several processes park it once.
  const park = db.transaction((record: NewApproval, event: AuditEvent | undefined) => {
    const existing = newestForKey.get(record.tenantId, record.idempotencyKey);
    if (existing) return { created: false, record: toRecord(existing) };
    const created = insertRecord(record);
    if (event) audit?.insertNow(event);
    return { created: true, record: created };
  });

  return {
    async create(record) {
      return insertRecord(record);
    },
    ...(audit ? { parkingAudit: audit } : {}),
    async park(record, event) {
      // An unlocked read answers the duplicates; only a key with no approval yet takes the write lock.
      const existing = newestForKey.get(record.tenantId, record.idempotencyKey);
      if (existing) return { created: false, record: toRecord(existing) };
      if (event) {
        // Buffered events first, as for a completion: the trail keeps its order.
        try {
          audit?.flush();
        } catch {}
      }
      return park.immediate(record, event);
    },
    async get({ tenantId, id }) {
      const row = select.get(tenantId, id);
      return row && toRecord(row);
    },
    async list({ tenantId, status, limit }) {
      const max = limit ?? -1;
      const rows =
        status === undefined ? listAll.all(tenantId, max) : listByStatus.all(tenantId, status, max);
      return rows.map(toRecord);
    },
    async decide(input) {
      return decide.immediate(input);
    },
    async finish(input) {
      return finish.immediate(input);
    },
    async interrupt({ tenantId, id, interruption }) {
      return interrupt.run(JSON.stringify(interruption), tenantId, id).changes === 1;
    },
    async retry(input) {
      return retry.immediate(input);
    },
    async listApproved({ limit }) {
      return listApproved.all(limit).map(toRecord);
    },
    async expire({ now }) {
      return expire.run(now).changes;
    },
    async waiting({ now }) {
      const { count, oldest } = waiting.get(now)!;
      return { count, oldestCreatedAt: oldest ?? undefined };
    },
  };
}
