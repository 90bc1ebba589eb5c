/**
 * @module The schedule tools' check of a scheduled call, through the seam the host serves them with: the
 * tool is one the caller may call (the seam's own visibility filter), and the input passes its schema. The
 * schedule tools themselves cannot be scheduled: a schedule that makes schedules would multiply.
 */
import type { ScheduleTargets } from "../../ports/schedule-store.js";
import { validateInput } from "../../seam/call-checks.js";
import type { Seam } from "../../seam/seam.js";

const NOT_SCHEDULABLE = new Set(["schedule_create", "schedule_list", "schedule_cancel"]);

export function seamScheduleTargets(seam: () => Seam): ScheduleTargets {
  return {
    async check(context, name, input) {
      const served = seam();
      const tool = served.registry.get(name);
      if (!tool || !served.mayUse(context, tool))
        return {
          ok: false,
          code: "unknown_tool",
          message: `there is no tool "${name}" you may call; find_tools lists the ones you can schedule`,
        };
      if (NOT_SCHEDULABLE.has(name))
        return { ok: false, code: "invalid_input", message: `${name} cannot itself be scheduled` };
      const validated = await validateInput(tool, input);
      if (validated.ok) return { ok: true };
      const error = validated.envelope.ok ? undefined : validated.envelope.error;
      return {
        ok: false,
        code: "invalid_input",
        message: `the input does not fit ${name}'s schema: ${error?.message ?? "invalid"}`,
      };
    },
  };
}
