/**
 * @module A schedules row as SQLite and PostgreSQL both return it: the same columns, read into a `Schedule`
 * the same way. SQLite keeps action and timing as JSON text, PostgreSQL as JSONB (already parsed).
 */
import type { Schedule, ScheduleStatus } from "../../ports/schedule-store.js";

export interface ScheduleRow {
  tenant_id: string;
  id: string;
  principal_id: string;
  key_id: string | null;
  action: string | Schedule["action"];
  timing: string | Schedule["timing"];
  status: ScheduleStatus;
  next_fire_at: number | null;
  fire_count: number;
  last_fired_at: number | null;
  last_outcome: string | null;
  created_at: number;
  claimed_fire_at: number | null;
}

export const SCHEDULE_COLUMNS =
  "tenant_id, id, principal_id, key_id, action, timing, status, next_fire_at, fire_count, last_fired_at, last_outcome, created_at, claimed_fire_at";

const parsed = <T>(value: string | T): T => (typeof value === "string" ? (JSON.parse(value) as T) : value);

export const toSchedule = (row: ScheduleRow): Schedule => ({
  id: row.id,
  tenantId: row.tenant_id,
  principalId: row.principal_id,
  ...(row.key_id === null ? {} : { keyId: row.key_id }),
  action: parsed<Schedule["action"]>(row.action),
  timing: parsed<Schedule["timing"]>(row.timing),
  status: row.status,
  ...(row.next_fire_at === null ? {} : { nextFireAt: row.next_fire_at }),
  fireCount: row.fire_count,
  ...(row.last_fired_at === null ? {} : { lastFiredAt: row.last_fired_at }),
  ...(row.last_outcome === null ? {} : { lastOutcome: row.last_outcome }),
  createdAt: row.created_at,
});
