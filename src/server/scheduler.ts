/**
 * @module The server's scheduler: every tick it claims the due occurrences of the deployment's schedules
 * (each claimed by one instance however many share the store) and runs them. A tool call goes through the
 * seam like any other call, as the schedule's principal with the grant of their newest live key now — so
 * scopes, mode, ceilings, approval and idempotency all apply as to a chat's call, and the seam audits it —
 * under a run id naming the schedule and a tool-call id naming the occurrence: an occurrence claimed again
 * after its holder died carries the same idempotency key, and a side effect happens once. A prompt is handed
 * to the host as a `schedule.prompt` event on the event stream. A principal left with no live key is refused
 * (the seam records the refusal) and the schedule paused.
 */
import type { AuthStore } from "../ports/auth-store.js";
import type { ScheduleOccurrence, ScheduleStore } from "../ports/schedule-store.js";
import { type CredentialResolver, createExecutionContext, type Logger } from "../seam/context.js";
import type { Seam } from "../seam/seam.js";
import type { SchedulePromptEvent } from "./event-hub.js";
import { newestLiveKey } from "./newest-live-key.js";

export interface SchedulerOptions {
  schedules: ScheduleStore;
  seam: Seam;
  auth: AuthStore;
  /** Hands a prompt to the host: the event hub (and the bus, for the other instances' streams). */
  publish: (event: SchedulePromptEvent) => void;
  logger: Logger;
  /** Names this instance in its claims. */
  holder: string;
  credentials?: CredentialResolver | undefined;
  /** How often due occurrences are looked for; 1 s unless given. */
  intervalMs?: number;
  /** How long an occurrence stays claimed by this instance before another may take it; 10 min unless given. */
  leaseMs?: number;
  /** Epoch milliseconds; the system clock unless given. */
  clock?: () => number;
}

export interface Scheduler {
  /** Claims and runs what is due now; resolves with how many occurrences ran. */
  tick(): Promise<number>;
  /** Stops ticking and waits for the occurrences under way. */
  stop(): Promise<void>;
}

/** The run a schedule's calls belong to, and the tool call of one occurrence: the same every time it is claimed. */
export const scheduleRunId = (scheduleId: string): string => `schedule:${scheduleId}`;
export const occurrenceCallId = (scheduleId: string, fireAt: number): string =>
  `schedule:${scheduleId}:${fireAt}`;

const BATCH = 20;

export function startScheduler(options: SchedulerOptions): Scheduler {
  const { schedules, logger } = options;
  const now = options.clock ?? Date.now;
  const leaseMs = options.leaseMs ?? 10 * 60_000;
  let running: Promise<number> | undefined;
  let stopped = false;

  const fire = async ({ schedule, fireAt }: ScheduleOccurrence): Promise<void> => {
    const { tenantId, principalId, id } = schedule;
    const key = await newestLiveKey(options.auth, tenantId, principalId);
    const live = key !== undefined && (key.expiresAt === undefined || key.expiresAt > now());
    const runId = scheduleRunId(id);
    let outcome: string;
    if (schedule.action.kind === "tool") {
      const context = createExecutionContext({
        tenantId,
        principalId,
        runId,
        toolCallId: occurrenceCallId(id, fireAt),
        // No live key: a disabled context, which the seam refuses and records like any refused call.
        scopes: live ? key.scopes : [],
        mode: live ? key.mode : "disabled",
        logger,
        ...(options.credentials ? { credentials: options.credentials } : {}),
      });
      const envelope = await options.seam.call(context, schedule.action.tool, schedule.action.input, {
        onInProgress: "wait",
      });
      outcome = envelope.ok ? "ok" : envelope.error.code;
    } else if (live && key.mode === "disabled") {
      // A disabled assistant acts on nothing, a prompt included; a repeating schedule goes on for when it is enabled.
      outcome = "not_authorized";
    } else {
      if (live) {
        const event: SchedulePromptEvent = {
          type: "schedule.prompt",
          tenantId,
          principalId,
          scheduleId: id,
          runId,
          prompt: schedule.action.prompt,
          fireAt,
          at: now(),
        };
        options.publish(event);
      }
      outcome = "published";
    }
    if (!live) outcome = `paused: ${principalId} has no live key`;
    const completed = await schedules.complete({
      tenantId,
      id,
      fireAt,
      holder: options.holder,
      outcome,
      now: now(),
      pause: !live,
    });
    logger.info({ schedule: id, tenantId, principalId, fireAt, outcome, completed }, "schedule fired");
  };

  const tick = (): Promise<number> => {
    running ??= (async () => {
      try {
        const due = await schedules.claimDue({ now: now(), holder: options.holder, leaseMs, limit: BATCH });
        await Promise.all(
          due.map((occurrence) =>
            fire(occurrence).catch((error: unknown) =>
              // Left claimed: once its lease lapses it is claimed again, with the same ids.
              logger.warn({ err: error, schedule: occurrence.schedule.id }, "a scheduled run failed"),
            ),
          ),
        );
        return due.length;
      } catch (error) {
        logger.warn({ err: error }, "the scheduler could not claim due schedules");
        return 0;
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const timer = setInterval(() => {
    if (!stopped) tick();
  }, options.intervalMs ?? 1_000);
  timer.unref();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
