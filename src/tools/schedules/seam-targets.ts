/**
 * @module The schedule tools' check of a scheduled call, through the seam the host serves them with: the
 * tool is one the caller may call (the seam's own visibility filter), and the input passes its schema. Neither
 * a schedule tool nor a tool that calls others (execute_tool) may be scheduled (`unschedulable`).
 */
import { type ScheduleTargets, unschedulable } from "../../ports/schedule-store.js";
import { validateInput } from "../../seam/call-checks.js";
import type { Seam } from "../../seam/seam.js";

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
      const problem = unschedulable(tool);
      if (problem !== undefined) return { ok: false, code: "invalid_input", message: problem };
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
