/**
 * @module PostgreSQL schedules, shared by every instance. A claim locks the due rows it takes (`FOR UPDATE
 * SKIP LOCKED`) and advances them in the same transaction, so instances claiming at once take different
 * occurrences and none twice; a creation counts and inserts under an advisory lock per owner, so the cap holds.
 */
import type pg from "pg";
import {
  SCHEDULE_LIMITS,
  type ScheduleScope,
  type ScheduleStore,
  type ScheduleStoreOptions,
} from "../../ports/schedule-store.js";
import {
  checkedSchedule,
  keptOutcome,
  newScheduleId,
  occurrenceAfter,
  scheduleCapReached,
} from "../../ports/schedule-timing.js";
import { SCHEDULE_COLUMNS, type ScheduleRow, toSchedule } from "../sql/schedule-rows.js";
import { inTransaction } from "./transaction.js";
import { underLock } from "./under-lock.js";

/** $1 the tenant, $2 the principal or NULL for the whole tenant. */
const IN_SCOPE = "tenant_id = $1 AND ($2::text IS NULL OR principal_id = $2)";
const scopeArgs = ({ tenantId, principalId }: ScheduleScope) => [tenantId, principalId ?? null];

/** The schedule store in the quoted `schema` (migrated). */
export function createPostgresScheduleStore(
  pool: pg.Pool,
  schema: string,
  options: ScheduleStoreOptions = {},
): ScheduleStore {
  const maxSchedules = options.maxSchedules ?? SCHEDULE_LIMITS.perPrincipal;
  const minIntervalMs = options.minIntervalMs ?? SCHEDULE_LIMITS.minIntervalMs;
  const table = `${schema}.schedules`;
  const select = async (client: pg.Pool | pg.PoolClient, scope: ScheduleScope, id: string) =>
    (
      await client.query<ScheduleRow>(
        `SELECT ${SCHEDULE_COLUMNS} FROM ${table} WHERE ${IN_SCOPE} AND id = $3`,
        [...scopeArgs(scope), id],
      )
    ).rows[0];
  return {
    async create(owner, schedule) {
      const checked = checkedSchedule(schedule, minIntervalMs);
      const id = newScheduleId();
      await underLock(
        pool,
        `toolreg schedules ${table} ${JSON.stringify([owner.tenantId, owner.principalId])}`,
        async (client) => {
          const { rows } = await client.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM ${table}
           WHERE tenant_id = $1 AND principal_id = $2 AND status IN ('active', 'paused')`,
            [owner.tenantId, owner.principalId],
          );
          if ((rows[0]?.n ?? 0) >= maxSchedules) throw scheduleCapReached(maxSchedules);
          await client.query(
            `INSERT INTO ${table} (tenant_id, id, principal_id, key_id, action, timing, status, next_fire_at, fire_count, created_at)
           VALUES ($1, $2, $3, $8, $4, $5, 'active', $6, 0, $7)`,
            [
              owner.tenantId,
              id,
              owner.principalId,
              JSON.stringify(checked.action),
              JSON.stringify(checked.timing),
              checked.nextFireAt,
              schedule.now,
              owner.keyId ?? null,
            ],
          );
        },
      );
      return {
        id,
        tenantId: owner.tenantId,
        principalId: owner.principalId,
        ...(owner.keyId === undefined ? {} : { keyId: owner.keyId }),
        action: checked.action,
        timing: checked.timing,
        status: "active",
        nextFireAt: checked.nextFireAt,
        fireCount: 0,
        createdAt: schedule.now,
      };
    },
    async get(scope, id) {
      const row = await select(pool, scope, id);
      return row && toSchedule(row);
    },
    async list(scope, filter = {}) {
      const { rows } = await pool.query<ScheduleRow>(
        `SELECT ${SCHEDULE_COLUMNS} FROM ${table} WHERE ${IN_SCOPE} AND ($3::text IS NULL OR status = $3)
         ORDER BY created_at DESC, id DESC LIMIT $4`,
        [...scopeArgs(scope), filter.status ?? null, SCHEDULE_LIMITS.listed],
      );
      return rows.map(toSchedule);
    },
    async cancel(scope, id) {
      const { rows } = await pool.query<ScheduleRow>(
        `UPDATE ${table} SET status = 'cancelled', next_fire_at = NULL
         WHERE ${IN_SCOPE} AND id = $3 AND status IN ('active', 'paused') RETURNING ${SCHEDULE_COLUMNS}`,
        [...scopeArgs(scope), id],
      );
      const row = rows[0] ?? (await select(pool, scope, id));
      return row && toSchedule(row);
    },
    async claimDue({ now, holder, leaseMs, limit }) {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<ScheduleRow>(
          `SELECT ${SCHEDULE_COLUMNS} FROM ${table} WHERE status = 'active' AND (
             (claimed_fire_at IS NULL AND next_fire_at <= $1) OR (claimed_fire_at IS NOT NULL AND lease_until <= $1))
           ORDER BY coalesce(claimed_fire_at, next_fire_at) LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [now, limit],
        );
        const claimed = [];
        for (const row of rows) {
          // A lapsed claim is the same occurrence again (same ids, same idempotency key); else the next one.
          const fireAt = row.claimed_fire_at ?? (row.next_fire_at as number);
          const schedule = toSchedule(row);
          const next =
            row.claimed_fire_at === null
              ? (occurrenceAfter(schedule.timing, fireAt, now, minIntervalMs) ?? null)
              : row.next_fire_at;
          await client.query(
            `UPDATE ${table} SET claimed_fire_at = $1, next_fire_at = $2, holder = $3, lease_until = $4
             WHERE tenant_id = $5 AND id = $6`,
            [fireAt, next, holder, now + leaseMs, row.tenant_id, row.id],
          );
          if (next === null) delete schedule.nextFireAt;
          else schedule.nextFireAt = next;
          claimed.push({ schedule, fireAt });
        }
        return claimed;
      });
    },
    async complete({ tenantId, id, fireAt, holder, outcome, now, pause }) {
      const { rowCount } = await pool.query(
        `UPDATE ${table} SET fire_count = fire_count + 1, last_fired_at = $1, last_outcome = $2,
           status = CASE WHEN status = 'active' AND $3 THEN 'paused'
                         WHEN status = 'active' AND next_fire_at IS NULL THEN 'done' ELSE status END,
           next_fire_at = CASE WHEN status = 'active' AND $3 THEN NULL ELSE next_fire_at END,
           claimed_fire_at = NULL, holder = NULL, lease_until = NULL
         WHERE tenant_id = $4 AND id = $5 AND claimed_fire_at = $6 AND holder = $7`,
        [now, keptOutcome(outcome), pause === true, tenantId, id, fireAt, holder],
      );
      return rowCount === 1;
    },
  };
}
