/** @module What the schedule tools run against: the schedule store, the host's check of a scheduled call, and the clock. */
import type { Schedule, ScheduleOwner, ScheduleStore, ScheduleTargets } from "../../ports/schedule-store.js";
import type { ExecutionContext } from "../../seam/context.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface ScheduleEnv {
  schedules: ScheduleStore;
  targets: ScheduleTargets;
  /** Epoch milliseconds. */
  now: () => number;
}

export const scheduleTool = toolFor<ScheduleEnv>();

/** Whose schedules a call reaches: the caller's own, from the context the seam built, never from the model's input. */
export const ownerOf = ({ tenantId, principalId, keyId }: ExecutionContext): ScheduleOwner => ({
  tenantId,
  principalId,
  keyId,
});

export const SCHEDULE_ID = /^sch_[0-9a-f]{16}$/;

/** One line a model reads: what runs, when, and how it has gone. */
export function describeSchedule(schedule: Schedule): string {
  const what =
    schedule.action.kind === "tool"
      ? `calls ${schedule.action.tool} ${JSON.stringify(schedule.action.input)}`
      : `hands the host the prompt ${JSON.stringify(schedule.action.prompt)}`;
  const when =
    schedule.timing.kind === "once"
      ? `once at ${iso(schedule.timing.at)}`
      : `on "${schedule.timing.expression}" (${schedule.timing.timeZone})`;
  const next = schedule.nextFireAt === undefined ? "" : `, next ${iso(schedule.nextFireAt)}`;
  const fired =
    schedule.fireCount === 0
      ? "not fired yet"
      : `fired ${schedule.fireCount} time${schedule.fireCount === 1 ? "" : "s"}, last ${schedule.lastOutcome ?? "?"}`;
  return `- ${schedule.id} [${schedule.status}] ${what} ${when}${next}; ${fired}`;
}

export const iso = (at: number): string => new Date(at).toISOString();
