/**
 * @module SQLite schedules, in the shared state file. A creation (count, then insert) and a claim (find the
 * due rows, advance each) each run in one immediate transaction, under SQLite's write lock: however many
 * processes share the file, the cap holds and an occurrence is claimed once.
 */
import type Database from "better-sqlite3";
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

/** `(? IS NULL OR principal_id = ?)`: a principal's own, or (none given) the tenant's. */
const scopeArgs = ({ tenantId, principalId }: ScheduleScope) =>
  [tenantId, principalId ?? null, principalId ?? null] as const;
const IN_SCOPE = "tenant_id = ? AND (? IS NULL OR principal_id = ?)";

export function createSqliteScheduleStore(
  db: Database.Database,
  options: ScheduleStoreOptions = {},
): ScheduleStore {
  const maxSchedules = options.maxSchedules ?? SCHEDULE_LIMITS.perPrincipal;
  const minIntervalMs = options.minIntervalMs ?? SCHEDULE_LIMITS.minIntervalMs;
  const live = db.prepare<[string, string], { n: number }>(
    "SELECT count(*) AS n FROM schedules WHERE tenant_id = ? AND principal_id = ? AND status IN ('active', 'paused')",
  );
  const insert = db.prepare(
    `INSERT INTO schedules (tenant_id, id, principal_id, key_id, action, timing, status, next_fire_at, fire_count, created_at)
     VALUES (@tenantId, @id, @principalId, @keyId, @action, @timing, 'active', @nextFireAt, 0, @createdAt)`,
  );
  const create = db.transaction((row: Record<string, string | number | null>) => {
    if ((live.get(row.tenantId as string, row.principalId as string)?.n ?? 0) >= maxSchedules)
      throw scheduleCapReached(maxSchedules);
    insert.run(row);
  });
  const get = db.prepare<[string, string | null, string | null, string], ScheduleRow>(
    `SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE ${IN_SCOPE} AND id = ?`,
  );
  const list = db.prepare<
    [string, string | null, string | null, string | null, string | null, number],
    ScheduleRow
  >(
    `SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE ${IN_SCOPE} AND (? IS NULL OR status = ?)
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const cancel = db.prepare<[string, string | null, string | null, string]>(
    `UPDATE schedules SET status = 'cancelled', next_fire_at = NULL
     WHERE ${IN_SCOPE} AND id = ? AND status IN ('active', 'paused')`,
  );
  const due = db.prepare<[number, number, number], ScheduleRow>(
    `SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE status = 'active' AND (
       (claimed_fire_at IS NULL AND next_fire_at <= ?) OR (claimed_fire_at IS NOT NULL AND lease_until <= ?))
     ORDER BY coalesce(claimed_fire_at, next_fire_at) LIMIT ?`,
  );
  const claim = db.prepare<[number, number | null, string, number, string, string]>(
    `UPDATE schedules SET claimed_fire_at = ?, next_fire_at = ?, holder = ?, lease_until = ?
     WHERE tenant_id = ? AND id = ?`,
  );
  const claimDue = db.transaction((now: number, holder: string, leaseMs: number, limit: number) =>
    due.all(now, now, limit).map((row) => {
      // A lapsed claim is the same occurrence again (same ids, same idempotency key); else the next one.
      const fireAt = row.claimed_fire_at ?? (row.next_fire_at as number);
      const schedule = toSchedule(row);
      const next =
        row.claimed_fire_at === null
          ? (occurrenceAfter(schedule.timing, fireAt, now, minIntervalMs) ?? null)
          : row.next_fire_at;
      claim.run(fireAt, next, holder, now + leaseMs, row.tenant_id, row.id);
      if (next === null) delete schedule.nextFireAt;
      else schedule.nextFireAt = next;
      return { schedule, fireAt };
    }),
  );
  const complete = db.prepare<
    [
      {
        now: number;
        outcome: string;
        pause: number;
        tenant: string;
        id: string;
        fireAt: number;
        holder: string;
      },
    ]
  >(
    `UPDATE schedules SET fire_count = fire_count + 1, last_fired_at = @now, last_outcome = @outcome,
       status = CASE WHEN status = 'active' AND @pause = 1 THEN 'paused'
                     WHEN status = 'active' AND next_fire_at IS NULL THEN 'done' ELSE status END,
       next_fire_at = CASE WHEN status = 'active' AND @pause = 1 THEN NULL ELSE next_fire_at END,
       claimed_fire_at = NULL, holder = NULL, lease_until = NULL
     WHERE tenant_id = @tenant AND id = @id AND claimed_fire_at = @fireAt AND holder = @holder`,
  );
  return {
    async create(owner, schedule) {
      const checked = checkedSchedule(schedule, minIntervalMs);
      const id = newScheduleId();
      create.immediate({
        tenantId: owner.tenantId,
        principalId: owner.principalId,
        keyId: owner.keyId ?? null,
        id,
        action: JSON.stringify(checked.action),
        timing: JSON.stringify(checked.timing),
        nextFireAt: checked.nextFireAt,
        createdAt: schedule.now,
      });
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
      const row = get.get(...scopeArgs(scope), id);
      return row && toSchedule(row);
    },
    async list(scope, filter = {}) {
      const status = filter.status ?? null;
      return list.all(...scopeArgs(scope), status, status, SCHEDULE_LIMITS.listed).map(toSchedule);
    },
    async cancel(scope, id) {
      cancel.run(...scopeArgs(scope), id);
      const row = get.get(...scopeArgs(scope), id);
      return row && toSchedule(row);
    },
    async claimDue({ now, holder, leaseMs, limit }) {
      return claimDue.immediate(now, holder, leaseMs, limit);
    },
    async complete({ tenantId, id, fireAt, holder, outcome, now, pause }) {
      const written = complete.run({
        now,
        outcome: keptOutcome(outcome),
        pause: pause ? 1 : 0,
        tenant: tenantId,
        id,
        fireAt,
        holder,
      });
      return written.changes === 1;
    },
  };
}
