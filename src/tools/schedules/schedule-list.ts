/**
 * @module `schedule_list`: the caller's own schedules, newest first. Their prompts and inputs were written by
 * a model that may have read hostile pages, so the listing comes back as untrusted text the seam fences.
 */
import { z } from "zod";
import { SCHEDULE_STATUSES } from "../../ports/schedule-store.js";
import { describeSchedule, ownerOf, scheduleTool } from "./schedule-env.js";

const input = z.object({
  status: z
    .enum(SCHEDULE_STATUSES)
    .optional()
    .describe("only schedules in this state; every state when omitted"),
});

export const scheduleListSpec = scheduleTool({
  name: "schedule_list",
  description:
    "Lists the schedules of the person you work for (what schedule_create made), newest first: each one's id, state (active, paused, cancelled, done), what it runs, when it runs next, how often it has fired and how its last run went. Only their own schedules are listed.",
  category: "productivity",
  effect: "read",
  input,
  async run({ status }, context, { schedules }) {
    const found = await schedules.list(ownerOf(context), { status });
    const data = { schedules: found };
    if (found.length === 0) return { content: status ? `No ${status} schedule.` : "No schedule.", data };
    return {
      content: [
        `${found.length} schedule${found.length === 1 ? "" : "s"}, newest first:`,
        ...found.map(describeSchedule),
      ].join("\n"),
      data,
      // A prompt or an input was written by a model, perhaps after reading a hostile page: fenced.
      provenance: { source: "schedule_list: made by an agent", trusted: false },
    };
  },
});
