/**
 * @module The port for schedules: a tool call, or a prompt for the host, that the server's scheduler runs
 * later (once at an instant) or on a cron expression in a time zone. A schedule belongs to the principal
 * that made it, in its tenant, both from the execution context and never from input; the scheduler runs it
 * under that principal's grant as it is when it fires. `claimDue` hands each occurrence to one holder
 * however many server instances share the store.
 */
import type { ExecutionContext } from "../seam/context.js";

/** Whose schedules: a principal's own, or (no principal: an operator's view) the whole tenant's. */
export interface ScheduleScope {
  tenantId: string;
  principalId?: string | undefined;
}

/** The schedule's maker, who it runs as, and the API key they made it with when the host has one. */
export interface ScheduleOwner {
  tenantId: string;
  principalId: string;
  keyId?: string | undefined;
}

/** What runs: a tool call through the seam, or a prompt handed to the host (an event it reads). */
export type ScheduledAction =
  | { kind: "tool"; tool: string; input: Record<string, unknown> }
  | { kind: "prompt"; prompt: string };

/** When: once at an instant, or on each occurrence of a cron expression read in an IANA time zone. */
export type ScheduleTiming =
  | { kind: "once"; at: number }
  | { kind: "cron"; expression: string; timeZone: string };

export const SCHEDULE_STATUSES = ["active", "paused", "cancelled", "done"] as const;
/**
 * `active` fires; `paused` was stopped by the scheduler (its principal had no live key when it fired);
 * `cancelled` by a person or agent; `done` is a one-shot that fired.
 */
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

export interface Schedule {
  /** `sch_` and 16 hex digits. */
  id: string;
  tenantId: string;
  principalId: string;
  /**
   * The API key that made it: each occurrence runs under that key's grant and mode as they are then, and
   * the schedule pauses once it is revoked or expired. Absent (a host without keys): the principal's newest live key.
   */
  keyId?: string;
  action: ScheduledAction;
  timing: ScheduleTiming;
  status: ScheduleStatus;
  /** The next occurrence not yet claimed (epoch ms); absent when none will come. */
  nextFireAt?: number;
  fireCount: number;
  lastFiredAt?: number;
  /** `ok`, the envelope's error code, `published` for a prompt, `paused: …` when the scheduler stopped it. */
  lastOutcome?: string;
  createdAt: number;
}

export interface NewSchedule {
  action: ScheduledAction;
  timing: ScheduleTiming;
  /** Epoch milliseconds; the store keeps no clock of its own. */
  now: number;
}

/** One occurrence a holder claimed: it runs it, then reports with `complete`. */
export interface ScheduleOccurrence {
  schedule: Schedule;
  /** The occurrence's own instant: with the schedule id, what makes its run and tool-call ids. */
  fireAt: number;
}

export interface ClaimRequest {
  now: number;
  /** Names the claiming process; only it may complete the occurrence while its lease holds. */
  holder: string;
  /** How long the claim holds: past it, an occurrence not completed is claimed again (its ids unchanged). */
  leaseMs: number;
  limit: number;
}

export interface Completion {
  tenantId: string;
  id: string;
  fireAt: number;
  holder: string;
  /** Short: `ok`, an error code, `published` … */
  outcome: string;
  now: number;
  /** Stop the schedule: it fires no more until made again (its principal has no live key). */
  pause?: boolean;
}

export interface ScheduleStore {
  /**
   * Keeps a new active schedule, or refuses (`invalid_input`, `precondition_failed` for the cap) with a
   * message a model can act on, writing nothing: a timing past, unparsable, in an unknown time zone or
   * firing more often than the floor; a principal already at its count of active schedules.
   */
  create(owner: ScheduleOwner, schedule: NewSchedule): Promise<Schedule>;
  /** One schedule in scope; undefined when there is none (another principal's included). */
  get(scope: ScheduleScope, id: string): Promise<Schedule | undefined>;
  /** The schedules in scope, newest first, at most `SCHEDULE_LIMITS.listed`. */
  list(scope: ScheduleScope, filter?: { status?: ScheduleStatus | undefined }): Promise<Schedule[]>;
  /**
   * Cancels an active or paused schedule in scope so it fires no more; the schedule as it now is, or
   * undefined when none is in scope. One already cancelled or done is returned unchanged.
   */
  cancel(scope: ScheduleScope, id: string): Promise<Schedule | undefined>;
  /**
   * Claims up to `limit` due occurrences atomically: an active schedule whose next occurrence is due, or
   * one whose claimed occurrence was not completed before its lease ran out. Its next occurrence moves on
   * in the same step (to the first at least the floor after this one and after `now`: occurrences missed
   * while no scheduler ran are not fired one by one), so two holders never claim one occurrence.
   */
  claimDue(request: ClaimRequest): Promise<ScheduleOccurrence[]>;
  /**
   * Records a claimed occurrence's outcome (fire count, last outcome; a one-shot becomes done, a paused
   * one paused). False when the holder no longer holds that occurrence (its lease lapsed and another took it).
   */
  complete(completion: Completion): Promise<boolean>;
}

export const SCHEDULE_LIMITS = {
  /** Active and paused schedules one principal may keep. */
  perPrincipal: 50,
  /** No two occurrences closer than this: a cron of every second cannot flood the seam. */
  minIntervalMs: 60_000,
  /** A one-shot at most this far ahead. */
  horizonMs: 366 * 24 * 60 * 60 * 1000,
  promptChars: 4_000,
  /** A tool call's input, as JSON. */
  inputChars: 16_384,
  listed: 200,
  /** A last outcome is kept to this many characters, by every adapter. */
  outcomeChars: 200,
} as const;

/** The adapters' options: tests lower the floor and the cap. */
export interface ScheduleStoreOptions {
  /** Default `SCHEDULE_LIMITS.perPrincipal`. */
  maxSchedules?: number;
  /** Default `SCHEDULE_LIMITS.minIntervalMs`. */
  minIntervalMs?: number;
}

/** The schedule tools: a schedule that makes, lists or cancels schedules could multiply itself. */
const SCHEDULE_TOOLS: ReadonlySet<string> = new Set(["schedule_create", "schedule_list", "schedule_cancel"]);

/**
 * Why a tool may not be scheduled, or undefined: a schedule tool, or one that calls another tool named in
 * its input (execute_tool), which could reach a schedule tool whatever its name says. Checked when the
 * schedule is made and again each time it fires.
 */
export function unschedulable(tool: {
  readonly name: string;
  readonly delegatesTo?: unknown;
}): string | undefined {
  if (SCHEDULE_TOOLS.has(tool.name)) return `${tool.name} cannot itself be scheduled`;
  if (tool.delegatesTo !== undefined)
    return `${tool.name} calls other tools and cannot be scheduled; schedule the tool it would call instead`;
  return undefined;
}

/**
 * What the host checks of a tool call when it is scheduled: that the caller may call that tool now, with
 * that input. A tool the caller may not see is refused as unknown, never as forbidden, so a schedule cannot
 * probe the catalogue. The scheduler still runs each occurrence through the seam under the grant it then has.
 */
export interface ScheduleTargets {
  check(
    context: ExecutionContext,
    tool: string,
    input: Record<string, unknown>,
  ): Promise<{ ok: true } | { ok: false; code: "unknown_tool" | "invalid_input"; message: string }>;
}
