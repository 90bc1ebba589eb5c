/**
 * @module `schedule_create`: a tool call or a prompt the server runs later, once or on a cron expression,
 * as the caller. The call is checked now (the tool is one the caller may call, the input fits its schema)
 * and again by the seam each time it fires, under the caller's grant and ceilings as they are then.
 */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { SCHEDULE_LIMITS, type ScheduledAction, type ScheduleTiming } from "../../ports/schedule-store.js";
import { describeSchedule, iso, ownerOf, scheduleTool } from "./schedule-env.js";

const input = z.object({
  tool: z
    .string()
    .max(64)
    .optional()
    .describe('the tool to call when it fires, as the catalogue names it, e.g. "memory_save"'),
  input: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("the tool's arguments, an object checked against its schema now; {} when omitted"),
  prompt: z
    .string()
    .max(SCHEDULE_LIMITS.promptChars)
    .optional()
    .describe(
      'instead of a tool call: a prompt handed to your host when it fires, e.g. "Summarise today\'s tickets"',
    ),
  at: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('run once at this instant, ISO 8601 with an offset, e.g. "2026-03-02T09:00:00Z"'),
  cron: z
    .string()
    .max(120)
    .optional()
    .describe(
      'or run on this cron expression (minute hour day-of-month month day-of-week), e.g. "0 9 * * 1-5"',
    ),
  timeZone: z
    .string()
    .max(64)
    .optional()
    .describe('the IANA time zone the cron expression is read in, e.g. "Europe/Paris"; UTC when omitted'),
});

const output = z.object({
  id: z.string(),
  status: z.string(),
  nextFireAt: z.string().optional(),
});

const refuse = (message: string): never => {
  throw new ToolFailure("invalid_input", message);
};

export const scheduleCreateSpec = scheduleTool({
  name: "schedule_create",
  description: `Schedules a tool call (tool and input) or a prompt for your host to run later as the person you work for: once at an instant (at) or repeatedly on a cron expression (cron, with timeZone). Each run goes through the same checks as a call made now, with their permissions at that time; a call that needs approval waits for a human each time. Repeats at most once a minute; at most ${SCHEDULE_LIMITS.perPrincipal} live schedules per person. Returns the schedule id, for schedule_list and schedule_cancel.`,
  category: "productivity",
  effect: "internal-write",
  input,
  output,
  async run(request, context, { schedules, targets, now }) {
    const action = actionOf(request);
    const timing = timingOf(request);
    if (action.kind === "tool") {
      const checked = await targets.check(context, action.tool, action.input);
      if (!checked.ok) throw new ToolFailure(checked.code, `nothing scheduled: ${checked.message}`);
    }
    const schedule = await schedules.create(ownerOf(context), { action, timing, now: now() });
    return {
      content: `Scheduled ${schedule.id}.\n${describeSchedule(schedule)}`,
      data: {
        id: schedule.id,
        status: schedule.status,
        ...(schedule.nextFireAt === undefined ? {} : { nextFireAt: iso(schedule.nextFireAt) }),
      },
      // The content repeats the prompt or input a model wrote: fenced, as schedule_list fences it.
      provenance: { source: "schedule_create: made by an agent", trusted: false },
    };
  },
});

function actionOf(request: z.infer<typeof input>): ScheduledAction {
  if ((request.tool === undefined) === (request.prompt === undefined))
    refuse("give either tool (with its input) or prompt, not both nor neither");
  if (request.prompt !== undefined) {
    if (request.input !== undefined) refuse("input goes with tool; a prompt takes none");
    return { kind: "prompt", prompt: request.prompt };
  }
  return { kind: "tool", tool: request.tool as string, input: request.input ?? {} };
}

function timingOf(request: z.infer<typeof input>): ScheduleTiming {
  if ((request.at === undefined) === (request.cron === undefined))
    refuse("give either at (once) or cron (repeatedly), not both nor neither");
  if (request.at !== undefined) {
    if (request.timeZone !== undefined) refuse("timeZone goes with cron; at carries its own offset");
    return { kind: "once", at: Date.parse(request.at) };
  }
  return { kind: "cron", expression: (request.cron as string).trim(), timeZone: request.timeZone ?? "UTC" };
}
