/**
 * @module PostgreSQL idempotency store. A claim is one atomic statement: an upsert whose update applies
 * exactly the writes `claimTransition` would make (a purged-and-reused key, a takeover, an operator's retry,
 * a lost run marked unknown) on the row as locked, and otherwise writes nothing.
 */
import type pg from "pg";
import { claimTransition } from "../../ports/store-transitions.js";
import type { AuditStore, IdempotencyRecord, IdempotencyStore } from "../../ports/stores.js";
import {
  AUDIT_COLUMNS,
  auditParams,
  IDEMPOTENCY_COLUMNS as COLUMNS,
  idempotencyRecordOf,
  jsonValue,
  type IdempotencyRow as Row,
} from "../sql/rows.js";
import { auditPlaceholders, flushQuietly } from "./audit.js";
import type { SettledListener } from "./settled-listener.js";

const toRecord = (row: Row): IdempotencyRecord => idempotencyRecordOf(row, jsonValue);

/** A snapshot that disagrees with the locked row is retried; past this many, something is wrong. */
const MAX_CLAIM_ATTEMPTS = 20;

/**
 * With `audit` (the audit store on the same schema), a completion's event is inserted in its transaction;
 * with `listener`, a caller waiting on another instance's call is woken by the settled notification.
 */
export function createPostgresIdempotencyStore(
  pool: pg.Pool,
  schema: string,
  options: { audit?: AuditStore; listener?: SettledListener } = {},
): IdempotencyStore {
  const { audit, listener } = options;
  const table = `${schema}.idempotency`;
  // The branches of claimTransition, over the existing row `t` and the parameters:
  // $1 tenant, $2 key, $3 fingerprint, $4 tool, $5 claim id, $6 now, $7 lease until, $8 retain until,
  // $9 claimed by, $10 holder, $11 reclaimable, $12 operator's retry.
  const purgeable = "(t.status = 'completed' AND t.retain_until <= $6)";
  const lapsed = "(t.status = 'unknown' OR t.lease_until <= $6)";
  // Past the WHERE, a row that is not purgeable has the same fingerprint and a lapsed claim: it is claimed
  // again (an operator's retry, or a takeover of an in-progress one that may run again), or marked unknown.
  const claims = `(${purgeable} OR $12::boolean OR $11::boolean)`;
  const fresh = (column: string) => `CASE WHEN ${purgeable} THEN excluded.${column} ELSE t.${column} END`;
  const claimed = (column: string) => `CASE WHEN ${claims} THEN excluded.${column} ELSE t.${column} END`;
  const claim = `
    WITH written AS (
      INSERT INTO ${table} AS t (${COLUMNS}, took_over)
      VALUES ($1, $2, $3, $4, 'in_progress', $5, NULL, $7, $6, $6, $8, $6, $9, $10, $6, false)
      ON CONFLICT (tenant_id, key) DO UPDATE SET
        fingerprint = ${fresh("fingerprint")}, tool_name = ${fresh("tool_name")},
        envelope = ${fresh("envelope")}, created_at = ${fresh("created_at")},
        retain_until = ${fresh("retain_until")},
        status = CASE WHEN ${claims} THEN 'in_progress' ELSE 'unknown' END,
        claim_id = ${claimed("claim_id")}, lease_until = ${claimed("lease_until")},
        claimed_at = ${claimed("claimed_at")}, claimed_by = ${claimed("claimed_by")},
        holder = ${claimed("holder")}, heartbeat_at = ${claimed("heartbeat_at")},
        updated_at = excluded.updated_at,
        took_over = CASE WHEN ${purgeable} THEN false WHEN ${claims} THEN true ELSE t.took_over END
      WHERE ${purgeable}
        OR (t.fingerprint = $3 AND t.status <> 'completed' AND ${lapsed}
            AND ($12::boolean OR t.status = 'in_progress'))
      RETURNING ${COLUMNS}, took_over
    )
    SELECT true AS written, * FROM written
    UNION ALL
    SELECT false, ${COLUMNS}, took_over FROM ${table}
    WHERE tenant_id = $1 AND key = $2 AND NOT EXISTS (SELECT 1 FROM written)`;

  const select = `SELECT ${COLUMNS} FROM ${table} WHERE tenant_id = $1 AND key = $2`;
  return {
    async claim(input) {
      const params = [
        input.tenantId,
        input.key,
        input.fingerprint,
        input.toolName,
        input.claimId,
        input.now,
        input.now + input.leaseMs,
        input.now + input.retentionMs,
        input.principalId,
        input.holder,
        input.reclaimable,
        input.retryUnknown === true,
      ];
      for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
        const { rows } = await pool.query<Row & { written: boolean; took_over: boolean }>(claim, params);
        const row = rows[0];
        if (row?.written) {
          const record = toRecord(row);
          if (record.status === "unknown") {
            return {
              kind: "unknown",
              since: record.updatedAt,
              evidence: {
                startedAt: record.claimedAt,
                by: record.claimedBy,
                holder: record.holder,
                lastHeartbeat: record.heartbeatAt,
              },
            };
          }
          return { kind: "claimed", reclaimed: row.took_over };
        }
        // Nothing written: the row as the statement's snapshot saw it says why. A snapshot older than the
        // locked row (another claim committed in between) calls for a write that did not happen: ask again.
        const decided = claimTransition(row && toRecord(row), input);
        if (!decided.write) return decided.outcome;
      }
      throw new Error(`claim of ${input.key} kept racing other claims; try again`);
    },
    ...(audit ? { completionAudit: audit } : {}),
    async complete(input) {
      const completion = `UPDATE ${table} SET status = 'completed', envelope = $1, updated_at = $2, retain_until = $3
         WHERE tenant_id = $4 AND key = $5 AND claim_id = $6 AND status <> 'completed'`;
      const params = [
        JSON.stringify(input.envelope),
        input.now,
        input.now + input.retentionMs,
        input.tenantId,
        input.key,
        input.claimId,
      ];
      if (!input.audit || !audit) return (await pool.query(completion, params)).rowCount === 1;
      // The reads' events that wait go in first, so the trail keeps its order; if they cannot, they wait on.
      await flushQuietly(audit);
      // One statement: the event is inserted exactly when the completion is made, in its transaction.
      const { rowCount } = await pool.query(
        `WITH completed AS (${completion} RETURNING 1)
         INSERT INTO ${schema}.audit (${AUDIT_COLUMNS}) SELECT ${auditPlaceholders(7)} FROM completed`,
        [...params, ...auditParams(input.audit)],
      );
      return rowCount === 1;
    },
    async heartbeat({ tenantId, key, claimId, now, leaseUntil }) {
      const { rowCount } = await pool.query(
        `UPDATE ${table} SET heartbeat_at = $1, lease_until = $2
         WHERE tenant_id = $3 AND key = $4 AND claim_id = $5 AND status = 'in_progress'`,
        [now, leaseUntil, tenantId, key, claimId],
      );
      return rowCount === 1;
    },
    async abandon({ tenantId, key, claimId, now }) {
      const { rowCount } = await pool.query(
        `UPDATE ${table} SET status = 'unknown', updated_at = $1
         WHERE tenant_id = $2 AND key = $3 AND claim_id = $4 AND status = 'in_progress'`,
        [now, tenantId, key, claimId],
      );
      return rowCount === 1;
    },
    ...(listener
      ? {
          settled: async ({
            tenantId,
            key,
            timeoutMs,
          }: {
            tenantId: string;
            key: string;
            timeoutMs: number;
          }) => {
            const stillRunning = async () => {
              const { rows } = await pool.query<{ status: string }>(
                `SELECT status FROM ${table} WHERE tenant_id = $1 AND key = $2`,
                [tenantId, key],
              );
              return rows[0]?.status === "in_progress";
            };
            await listener.wait(tenantId, key, timeoutMs, stillRunning);
          },
        }
      : {}),
    async get({ tenantId, key }) {
      const { rows } = await pool.query<Row>(select, [tenantId, key]);
      return rows[0] && toRecord(rows[0]);
    },
    async list({ tenantId, status }) {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${table} WHERE tenant_id = $1 AND ($2::text IS NULL OR status = $2)
         ORDER BY created_at, key`,
        [tenantId, status ?? null],
      );
      return rows.map(toRecord);
    },
    async purge({ now }) {
      const { rowCount } = await pool.query(
        `DELETE FROM ${table} WHERE status = 'completed' AND retain_until <= $1`,
        [now],
      );
      return rowCount ?? 0;
    },
  };
}
