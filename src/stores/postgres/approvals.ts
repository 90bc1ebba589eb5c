/**
 * @module PostgreSQL approval store. Decisions, finishes and retries are compare-and-set: the transition is
 * computed from the row as read and written only if its status is still the one read, so the first
 * decision to commit wins on every instance.
 */
import type pg from "pg";
import {
  decideTransition,
  finishTransition,
  pendingApproval,
  retryTransition,
} from "../../ports/store-transitions.js";
import type { ApprovalRecord, ApprovalStore, AuditStore, NewApproval } from "../../ports/stores.js";
import {
  approvalRecordOf,
  APPROVAL_COLUMNS as COLUMNS,
  jsonValue,
  type ApprovalRow as Row,
} from "../sql/rows.js";
import { flushQuietly, insertAuditEvent } from "./audit.js";

const toRecord = (row: Row): ApprovalRecord => approvalRecordOf(row, jsonValue);

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

const insertParams = (record: ApprovalRecord) => [
  record.tenantId,
  record.id,
  record.toolName,
  record.toolVersion,
  record.effect,
  record.definitionHash,
  json(record.input),
  record.description,
  record.requestedBy,
  record.runId,
  record.toolCallId,
  record.idempotencyKey,
  record.fingerprint,
  record.status,
  record.createdAt,
  record.expiresAt,
];

/** A compare-and-set that keeps losing to other writers is retried this many times before giving up. */
const MAX_CAS_ATTEMPTS = 20;

/** With `audit` (the audit store on the same schema), a request's event is inserted in the parking's transaction. */
export function createPostgresApprovalStore(
  pool: pg.Pool,
  schema: string,
  audit?: AuditStore,
): ApprovalStore {
  const table = `${schema}.approvals`;
  const select = `SELECT ${COLUMNS} FROM ${table} WHERE tenant_id = $1 AND id = $2`;
  const newestForKey = `SELECT ${COLUMNS} FROM ${table} WHERE tenant_id = $1 AND idempotency_key = $2
    ORDER BY created_at DESC, seq DESC LIMIT 1`;

  const read = async (
    queryable: pg.Pool | pg.PoolClient,
    text: string,
    params: unknown[],
  ): Promise<ApprovalRecord | undefined> => {
    const { rows } = await queryable.query<Row>(text, params);
    return rows[0] && toRecord(rows[0]);
  };
  const insert = async (queryable: pg.Pool | pg.PoolClient, record: NewApproval) => {
    const { rows } = await queryable.query<Row>(
      `INSERT INTO ${table} (tenant_id, id, tool_name, tool_version, effect, definition_hash, input,
         description, requested_by, run_id, tool_call_id, idempotency_key, fingerprint, status, created_at,
         expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
       ON CONFLICT (tenant_id, id) DO NOTHING
       RETURNING ${COLUMNS}`,
      insertParams(pendingApproval(record)),
    );
    // DO NOTHING plus a check, rather than catching a constraint error by its message.
    if (!rows[0]) throw new Error(`approval ${record.id} already exists`);
    return toRecord(rows[0]);
  };
  /**
   * Writes what a decision, finish or retry changes if the row is still as read: its status, and its last
   * retry (the one way an approval returns to a status it had, interrupted → approved).
   */
  const compareAndSet = async (next: ApprovalRecord, expected: ApprovalRecord): Promise<boolean> => {
    const { rowCount } = await pool.query(
      `UPDATE ${table} SET status = $1, decided_by = $2, decided_at = $3, note = $4, result = $5,
         finished_at = $6, interruption = $7, retried_by = $8, retried_at = $9, answers = $14
       WHERE tenant_id = $10 AND id = $11 AND status = $12 AND retried_at IS NOT DISTINCT FROM $13`,
      [
        next.status,
        next.decidedBy ?? null,
        next.decidedAt ?? null,
        next.note ?? null,
        json(next.result),
        next.finishedAt ?? null,
        json(next.interruption),
        next.retriedBy ?? null,
        next.retriedAt ?? null,
        next.tenantId,
        next.id,
        expected.status,
        expected.retriedAt ?? null,
        json(next.answers),
      ],
    );
    return rowCount === 1;
  };
  /** Reads, applies `transition`, and writes it only over the status read; on losing the race, reads again. */
  const transact = async <Outcome>(
    tenantId: string,
    id: string,
    transition: (existing: ApprovalRecord | undefined) => {
      outcome: Outcome;
      write: ApprovalRecord | undefined;
    },
  ): Promise<Outcome> => {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const existing = await read(pool, select, [tenantId, id]);
      const { outcome, write } = transition(existing);
      if (!existing || !write || (await compareAndSet(write, existing))) return outcome;
    }
    throw new Error(`approval ${id} kept changing under this update; try again`);
  };

  return {
    async create(record) {
      return insert(pool, record);
    },
    ...(audit ? { parkingAudit: audit } : {}),
    async park(record, event) {
      // An unlocked read answers the duplicates; only a key with no approval yet takes the key's lock.
      const existing = await read(pool, newestForKey, [record.tenantId, record.idempotencyKey]);
      if (existing) return { created: false, record: existing };
      if (event && audit) await flushQuietly(audit);
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        // Serialises parks of one key on every instance: the read below sees any approval committed before.
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
          `toolreg park ${table} ${record.tenantId} ${record.idempotencyKey}`,
        ]);
        const parked = await read(client, newestForKey, [record.tenantId, record.idempotencyKey]);
        const outcome = parked
          ? { created: false, record: parked }
          : { created: true, record: await insert(client, record) };
        if (outcome.created && event && audit) await insertAuditEvent(client, schema, event);
        await client.query("COMMIT");
        return outcome;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async get({ tenantId, id }) {
      return read(pool, select, [tenantId, id]);
    },
    async list({ tenantId, status, limit }) {
      // LIMIT NULL is no limit.
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${table} WHERE tenant_id = $1 AND ($2::text IS NULL OR status = $2)
         ORDER BY created_at DESC, id LIMIT $3`,
        [tenantId, status ?? null, limit ?? null],
      );
      return rows.map(toRecord);
    },
    async decide(input) {
      return transact(input.tenantId, input.id, (existing) => decideTransition(existing, input));
    },
    async finish(input) {
      return transact(input.tenantId, input.id, (existing) => {
        const write = finishTransition(existing, input);
        return { outcome: write !== undefined, write };
      });
    },
    async interrupt({ tenantId, id, interruption }) {
      const { rowCount } = await pool.query(
        `UPDATE ${table} SET status = 'interrupted', interruption = $1
         WHERE tenant_id = $2 AND id = $3 AND status = 'approved'`,
        [JSON.stringify(interruption), tenantId, id],
      );
      return rowCount === 1;
    },
    async retry(input) {
      return transact(input.tenantId, input.id, (existing) => retryTransition(existing, input));
    },
    async listApproved({ limit }) {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${table} WHERE status = 'approved' ORDER BY decided_at LIMIT $1`,
        [limit],
      );
      return rows.map(toRecord);
    },
    async expire({ now }) {
      const { rowCount } = await pool.query(
        `UPDATE ${table} SET status = 'expired' WHERE status = 'pending' AND expires_at <= $1`,
        [now],
      );
      return rowCount ?? 0;
    },
    async waiting({ now }) {
      // Served by the partial index approvals_by_expiry (expires_at) WHERE status = 'pending'.
      const { rows } = await pool.query<{ count: number; oldest: number | null }>(
        `SELECT count(*) AS count, min(created_at) AS oldest FROM ${table}
         WHERE status = 'pending' AND expires_at > $1`,
        [now],
      );
      const { count, oldest } = rows[0]!;
      return { count, oldestCreatedAt: oldest ?? undefined };
    },
  };
}
