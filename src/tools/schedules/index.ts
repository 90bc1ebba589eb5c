/** @module The schedules toolkit: tool calls and prompts run later, kept in a ScheduleStore. */
import type { ScheduleStore, ScheduleTargets } from "../../ports/schedule-store.js";
import type { ToolModule } from "../../registry/tool-module.js";
import { schedulesToolkit } from "./toolkit.js";

export { seamScheduleTargets } from "./seam-targets.js";
export { schedulesToolkit } from "./toolkit.js";

export interface ScheduleToolDeps {
  /** Where schedules are kept; without it (or the check) there is no schedule_create, schedule_list or schedule_cancel. */
  schedules?: ScheduleStore;
  /** How a scheduled call is checked when it is made (`seamScheduleTargets`). */
  scheduleTargets?: ScheduleTargets;
}

export const scheduleTools: ToolModule<ScheduleToolDeps> = (deps) =>
  deps.schedules && deps.scheduleTargets
    ? schedulesToolkit.withEnv({ schedules: deps.schedules, targets: deps.scheduleTargets, now: Date.now })
    : [];
