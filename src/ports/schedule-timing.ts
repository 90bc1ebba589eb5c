/**
 * @module What every ScheduleStore adapter does the same way: checking a new schedule (its action, its cron
 * expression and time zone through croner, the floor between occurrences) and working out the occurrence
 * after one, so the three adapters refuse and advance alike.
 */
import { randomBytes } from "node:crypto";
import { Cron } from "croner";
import { ToolFailure } from "../errors/tool-failure.js";
import {
  type NewSchedule,
  SCHEDULE_LIMITS,
  type ScheduledAction,
  type ScheduleTiming,
} from "./schedule-store.js";

export const newScheduleId = (): string => `sch_${randomBytes(8).toString("hex")}`;

/** A last outcome as every adapter keeps it: cut to `SCHEDULE_LIMITS.outcomeChars`. */
export const keptOutcome = (outcome: string): string => outcome.slice(0, SCHEDULE_LIMITS.outcomeChars);

/** Control characters but tab and line breaks, and half a surrogate pair: PostgreSQL refuses a NUL and lone halves. */
const NOT_TEXT = /(?![\t\n\r])\p{Cc}|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;
const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** Occurrences looked at when checking the floor: enough to meet an irregular list such as `0,1 * * * *`. */
const FLOOR_SAMPLE = 60;

const refuse = (message: string): never => {
  throw new ToolFailure("invalid_input", message);
};

/** A cron expression of 5 fields (minutes) or 6 (seconds first), in an IANA time zone; refuses what croner cannot read. */
function cronOf(expression: string, timeZone: string): Cron {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    refuse(`"${timeZone.slice(0, 64)}" is not an IANA time zone; use one such as "Europe/Paris" or "UTC"`);
  }
  try {
    return new Cron(expression, { timezone: timeZone, mode: "5-or-6-parts", paused: true });
  } catch (error) {
    return refuse(
      `the cron expression "${expression.slice(0, 100)}" does not parse (${(error as Error).message.slice(0, 200)}); write 5 fields: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5"`,
    );
  }
}

/**
 * The schedule as stored and its first occurrence, or an `invalid_input` refusal naming what to change.
 * `minIntervalMs` is the adapter's floor between two occurrences.
 */
export function checkedSchedule(
  schedule: NewSchedule,
  minIntervalMs: number,
): { action: ScheduledAction; timing: ScheduleTiming; nextFireAt: number } {
  return {
    action: checkedAction(schedule.action),
    ...checkedTiming(schedule.timing, schedule.now, minIntervalMs),
  };
}

function checkedAction(action: ScheduledAction): ScheduledAction {
  if (action.kind === "prompt") {
    const { prompt } = action;
    if (typeof prompt !== "string" || prompt.trim().length === 0) refuse("the prompt is empty");
    if (prompt.length > SCHEDULE_LIMITS.promptChars)
      refuse(`the prompt is ${prompt.length} characters; keep it under ${SCHEDULE_LIMITS.promptChars}`);
    if (NOT_TEXT.test(prompt))
      refuse("remove control characters from the prompt (tab and line breaks are fine)");
    return { kind: "prompt", prompt };
  }
  if (action.kind !== "tool") return refuse("a schedule runs a tool call or a prompt");
  if (typeof action.tool !== "string" || !TOOL_NAME.test(action.tool))
    refuse("the tool is named in snake_case, as the catalogue lists it");
  const input = action.input;
  if (typeof input !== "object" || input === null || Array.isArray(input))
    refuse("the tool's input is a JSON object");
  let json = "";
  try {
    json = JSON.stringify(input);
  } catch {
    refuse("the tool's input is not JSON");
  }
  if (json.length > SCHEDULE_LIMITS.inputChars)
    refuse(
      `the tool's input is ${json.length} characters of JSON; keep it under ${SCHEDULE_LIMITS.inputChars}`,
    );
  if (NOT_TEXT.test(json)) refuse("remove control characters from the tool's input");
  return { kind: "tool", tool: action.tool, input: JSON.parse(json) as Record<string, unknown> };
}

function checkedTiming(
  timing: ScheduleTiming,
  now: number,
  minIntervalMs: number,
): { timing: ScheduleTiming; nextFireAt: number } {
  if (timing.kind === "once") {
    const { at } = timing;
    if (!Number.isSafeInteger(at) || at <= now)
      refuse(`the instant ${instant(at)} is not in the future (it is now ${instant(now)})`);
    if (at > now + SCHEDULE_LIMITS.horizonMs)
      refuse(`the instant ${instant(at)} is more than ${SCHEDULE_LIMITS.horizonMs / 86_400_000} days ahead`);
    return { timing: { kind: "once", at }, nextFireAt: at };
  }
  if (timing.kind !== "cron") return refuse("a schedule runs once at an instant or on a cron expression");
  const { expression, timeZone } = timing;
  if (typeof expression !== "string" || expression.length > 120)
    refuse("the cron expression is over 120 characters");
  if (typeof timeZone !== "string" || timeZone.length > 64) refuse("the time zone is over 64 characters");
  const runs = cronOf(expression, timeZone)
    .nextRuns(FLOOR_SAMPLE, new Date(now))
    .map((run) => run.getTime());
  const first = runs[0];
  if (first === undefined) return refuse(`the cron expression "${expression}" never fires`);
  const gap = Math.min(...runs.slice(1).map((run, index) => run - (runs[index] as number)));
  if (gap < minIntervalMs)
    refuse(
      `"${expression}" fires as little as ${gap / 1000} s apart; a schedule fires at most once every ${minIntervalMs / 1000} s`,
    );
  return { timing: { kind: "cron", expression, timeZone }, nextFireAt: first };
}

/**
 * The occurrence after the one at `fireAt`, claimed at `now`: undefined for a one-shot; for a cron, the
 * first at least the floor after `fireAt` and after `now`, so missed occurrences are not fired one by one.
 */
export function occurrenceAfter(
  timing: ScheduleTiming,
  fireAt: number,
  now: number,
  minIntervalMs: number,
): number | undefined {
  if (timing.kind === "once") return undefined;
  try {
    const next = cronOf(timing.expression, timing.timeZone).nextRun(
      new Date(Math.max(now, fireAt + minIntervalMs - 1)),
    );
    return next ? next.getTime() : undefined;
  } catch {
    // A stored timing this runtime no longer reads (a time zone its ICU dropped): the schedule ends after
    // this occurrence rather than failing every claim of every schedule.
    return undefined;
  }
}

const instant = (at: number) =>
  Number.isFinite(at) && Math.abs(at) <= 8.64e15 ? new Date(at).toISOString() : String(at);

/** The refusal of a schedule past the principal's cap, the same on every adapter. */
export function scheduleCapReached(limit: number): ToolFailure {
  return new ToolFailure(
    "precondition_failed",
    `nothing scheduled: this person already keeps ${limit} schedules, the most allowed; cancel some with schedule_cancel first`,
    { details: { limit } },
  );
}
