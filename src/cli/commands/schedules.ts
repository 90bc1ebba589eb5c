/**
 * @module `toolreg schedules list` and `toolreg schedules cancel`: an operator's view of the schedules in the
 * local state, for the tenant the command acts for (--tenant), whoever made them.
 */
import {
  SCHEDULE_LIMITS,
  SCHEDULE_STATUSES,
  type Schedule,
  type ScheduleStatus,
  type ScheduleStore,
} from "../../ports/schedule-store.js";
import { type CliIo, UsageError } from "../cli-io.js";
import { formatTable } from "../format.js";

const iso = (at: number | undefined) => (at === undefined ? "-" : new Date(at).toISOString());

const whatOf = (schedule: Schedule) => (schedule.action.kind === "tool" ? schedule.action.tool : "(prompt)");
const whenOf = (schedule: Schedule) =>
  schedule.timing.kind === "once"
    ? `once ${iso(schedule.timing.at)}`
    : `${schedule.timing.expression} (${schedule.timing.timeZone})`;

export async function listSchedules(
  schedules: ScheduleStore,
  tenantId: string,
  options: { status?: string; json?: boolean },
  io: CliIo,
): Promise<number> {
  const { status } = options;
  if (status !== undefined && !(SCHEDULE_STATUSES as readonly string[]).includes(status))
    throw new UsageError(`--status ${status}: one of ${SCHEDULE_STATUSES.join(", ")}`);
  const listed = await schedules.list({ tenantId }, { status: status as ScheduleStatus | undefined });
  if (options.json) {
    io.stdout(`${JSON.stringify(listed, null, 2)}\n`);
    return 0;
  }
  if (listed.length === 0) {
    io.stdout(`no ${status ?? ""}${status ? " " : ""}schedule in tenant ${tenantId}\n`);
    return 0;
  }
  io.stdout(
    formatTable(
      ["ID", "PRINCIPAL", "STATUS", "RUNS", "WHEN", "NEXT", "FIRED", "LAST"],
      listed.map((schedule) => [
        schedule.id,
        schedule.principalId,
        schedule.status,
        whatOf(schedule),
        whenOf(schedule),
        iso(schedule.nextFireAt),
        String(schedule.fireCount),
        schedule.lastOutcome ?? "-",
      ]),
    ),
  );
  // The store lists at most this many: say so rather than let a full page pass for all there is.
  if (listed.length >= SCHEDULE_LIMITS.listed)
    io.stderr(
      `the newest ${SCHEDULE_LIMITS.listed} are shown; there may be more: narrow with --status active or paused\n`,
    );
  return 0;
}

/** Cancels one schedule of the tenant; exit 1 when the tenant has none by that id. */
export async function cancelSchedule(
  schedules: ScheduleStore,
  tenantId: string,
  id: string,
  io: CliIo,
): Promise<number> {
  const before = await schedules.get({ tenantId }, id);
  const after = before && (await schedules.cancel({ tenantId }, id));
  if (!before || !after) {
    io.stderr(`error: no schedule ${id.slice(0, 100)} in tenant ${tenantId}\n`);
    return 1;
  }
  io.stdout(
    before.status === "active" || before.status === "paused"
      ? `cancelled ${id}\n`
      : `${id} was already ${before.status}\n`,
  );
  return 0;
}
