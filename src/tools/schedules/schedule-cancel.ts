/** @module `schedule_cancel`: stops one of the caller's own schedules for good. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { describeSchedule, ownerOf, SCHEDULE_ID, scheduleTool } from "./schedule-env.js";

const input = z.object({
  id: z
    .string()
    .regex(SCHEDULE_ID, "a schedule id, as schedule_create or schedule_list gives it")
    .describe('the schedule\'s id, e.g. "sch_3f2a9c0e1b7d4a65"'),
});

export const scheduleCancelSpec = scheduleTool({
  name: "schedule_cancel",
  description:
    "Cancels one schedule of the person you work for, by the id schedule_create or schedule_list gave: it fires no more (a run already under way finishes). It cannot be undone; schedule it again if needed. Only their own schedules can be cancelled.",
  category: "productivity",
  // Internal-write: it stops the caller's own future calls, which changes nothing outside and asks no approval.
  effect: "internal-write",
  input,
  async run({ id }, context, { schedules }) {
    const owner = ownerOf(context);
    const before = await schedules.get(owner, id);
    const schedule = before && (await schedules.cancel(owner, id));
    if (!before || !schedule)
      throw new ToolFailure(
        "precondition_failed",
        `no schedule ${id} of this person's; schedule_list shows the ids`,
      );
    const content =
      before.status === "active" || before.status === "paused"
        ? `Cancelled ${id}; it fires no more.\n${describeSchedule(schedule)}`
        : `${id} was already ${before.status}; nothing changed.\n${describeSchedule(schedule)}`;
    // The content repeats the prompt or input a model wrote: fenced, as schedule_list fences it.
    return {
      content,
      data: { id, status: schedule.status },
      provenance: { source: "schedule_cancel: made by an agent", trusted: false },
    };
  },
});
