/** @module SQLite idempotency store: each claim and completion is one immediate transaction on the shared file. */
import type Database from "better-sqlite3";
import { claimTransition } from "../../ports/store-transitions.js";
import type {
  AuditEvent,
  ClaimInput,
  CompleteInput,
  IdempotencyRecord,
  IdempotencyStatus,
  IdempotencyStore,
} from "../../ports/stores.js";
import {
  IDEMPOTENCY_COLUMNS as COLUMNS,
  idempotencyRecordOf,
  jsonText,
  type IdempotencyRow as Row,
} from "../sql/rows.js";
import type { SqliteAuditStore } from "./audit.js";

const toRecord = (row: Row): IdempotencyRecord => idempotencyRecordOf(row, jsonText);

type Params = [
  string,
  string,
  string,
  string,
  IdempotencyStatus,
  string,
  string | null,
  number,
  number,
  number,
  number,
  number,
  string,
  string,
  number,
];

// Positional, in COLUMNS order: better-sqlite3 binds a named parameter by a property lookup each, which
// measured at a quarter of the cost of a claim.
const toParams = (record: IdempotencyRecord): Params => [
  record.tenantId,
  record.key,
  record.fingerprint,
  record.toolName,
  record.status,
  record.claimId,
  record.envelope === undefined ? null : JSON.stringify(record.envelope),
  record.leaseUntil,
  record.createdAt,
  record.updatedAt,
  record.retainUntil,
  record.claimedAt,
  record.claimedBy,
  record.holder,
  record.heartbeatAt,
];
const PLACEHOLDERS = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";

/** With `audit` (the audit store on the same file), a completion's event is inserted in its transaction. */
export function createSqliteIdempotencyStore(
  db: Database.Database,
  options: { audit?: SqliteAuditStore } = {},
): IdempotencyStore {
  const { audit } = options;
  const select = db.prepare<[string, string], Row>(
    `SELECT ${COLUMNS} FROM idempotency WHERE tenant_id = ? AND key = ?`,
  );
  // One statement for both a fresh claim and a takeover, so the hot path is one SELECT and one write.
  const write = db.prepare<Params>(
    `INSERT INTO idempotency (${COLUMNS}) VALUES (${PLACEHOLDERS})
     ON CONFLICT (tenant_id, key) DO UPDATE SET
       fingerprint = excluded.fingerprint, tool_name = excluded.tool_name, status = excluded.status,
       claim_id = excluded.claim_id, envelope = excluded.envelope, lease_until = excluded.lease_until,
       created_at = excluded.created_at, updated_at = excluded.updated_at, retain_until = excluded.retain_until,
       claimed_at = excluded.claimed_at, claimed_by = excluded.claimed_by, holder = excluded.holder,
       heartbeat_at = excluded.heartbeat_at`,
  );
  const listAll = db.prepare<[string], Row>(
    `SELECT ${COLUMNS} FROM idempotency WHERE tenant_id = ? ORDER BY created_at, key`,
  );
  const listByStatus = db.prepare<[string, IdempotencyStatus], Row>(
    `SELECT ${COLUMNS} FROM idempotency WHERE tenant_id = ? AND status = ? ORDER BY created_at, key`,
  );
  const purge = db.prepare<[number]>(
    "DELETE FROM idempotency WHERE status = 'completed' AND retain_until <= ?",
  );

  // A fresh key is the common case: one autocommit INSERT claims it, with no transaction around a SELECT.
  // The insert is exactly claimTransition's "no record" branch; anything else takes the locked path below.
  const insertFresh = db.prepare<Params>(
    `INSERT INTO idempotency (${COLUMNS}) VALUES (${PLACEHOLDERS})
     ON CONFLICT (tenant_id, key) DO NOTHING`,
  );
  // Completion is one conditional UPDATE: only the claim's holder can store a result (transitions.completable).
  const completeClaim = db.prepare<[string, number, number, string, string, string]>(
    `UPDATE idempotency SET status = 'completed', envelope = ?, updated_at = ?, retain_until = ?
     WHERE tenant_id = ? AND key = ? AND claim_id = ? AND status <> 'completed'`,
  );
  const completeOne = (input: CompleteInput): boolean =>
    completeClaim.run(
      JSON.stringify(input.envelope),
      input.now,
      input.now + input.retentionMs,
      input.tenantId,
      input.key,
      input.claimId,
    ).changes === 1;
  // The event only with the completion it belongs to: a claim lost meanwhile writes neither.
  const completeAudited = db.transaction((input: CompleteInput, event: AuditEvent): boolean => {
    if (!completeOne(input)) return false;
    audit?.insertNow(event);
    return true;
  });
  const heartbeat = db.prepare<[number, number, string, string, string]>(
    `UPDATE idempotency SET heartbeat_at = ?, lease_until = ?
     WHERE tenant_id = ? AND key = ? AND claim_id = ? AND status = 'in_progress'`,
  );
  const abandon = db.prepare<[number, string, string, string]>(
    `UPDATE idempotency SET status = 'unknown', updated_at = ?
     WHERE tenant_id = ? AND key = ? AND claim_id = ? AND status = 'in_progress'`,
  );

  // The row is read inside the write lock, so another connection cannot claim between the read and the write.
  const claim = db.transaction((input: ClaimInput) => {
    const row = select.get(input.tenantId, input.key);
    const { outcome, write: next } = claimTransition(row && toRecord(row), input);
    if (next) write.run(...toParams(next));
    return outcome;
  });
  return {
    async claim(input) {
      const fresh = claimTransition(undefined, input).write as IdempotencyRecord;
      if (insertFresh.run(...toParams(fresh)).changes === 1) return { kind: "claimed", reclaimed: false };
      // A replay, a conflict or a live lease changes nothing, so an unlocked read decides it; only a
      // decision that writes (a takeover, or marking unknown) is made again under the write lock.
      const row = select.get(input.tenantId, input.key);
      const unlocked = claimTransition(row && toRecord(row), input);
      return unlocked.write ? claim.immediate(input) : unlocked.outcome;
    },
    ...(audit ? { completionAudit: audit } : {}),
    async complete(input) {
      if (!input.audit || !audit) return completeOne(input);
      // What waits in the trail's buffer goes first, so the trail keeps the order events were recorded in;
      // if it cannot be written now, it stays buffered and is offered again as usual.
      try {
        audit.flush();
      } catch {}
      return completeAudited.immediate(input, input.audit);
    },
    async heartbeat({ tenantId, key, claimId, now, leaseUntil }) {
      return heartbeat.run(now, leaseUntil, tenantId, key, claimId).changes === 1;
    },
    async abandon({ tenantId, key, claimId, now }) {
      return abandon.run(now, tenantId, key, claimId).changes === 1;
    },
    async get({ tenantId, key }) {
      const row = select.get(tenantId, key);
      return row && toRecord(row);
    },
    async list({ tenantId, status }) {
      const rows = status === undefined ? listAll.all(tenantId) : listByStatus.all(tenantId, status);
      return rows.map(toRecord);
    },
    async purge({ now }) {
      return purge.run(now).changes;
    },
  };
}
