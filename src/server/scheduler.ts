/**
 * @module The server's scheduler: every tick it claims the due occurrences of the deployment's schedules
 * (each claimed by one instance however many share the store) and runs them. A tool call goes through the
 * seam like any other call, as the schedule's principal with the grant the key that made it has now — so
 * scopes, mode, ceilings, approval and idempotency all apply as to a chat's call, and the seam audits it —
 * under a run id naming the schedule and a tool-call id naming the occurrence: an occurrence claimed again
 * after its holder died carries the same idempotency key, and a side effect happens once. A prompt is handed
 * to the host as a `schedule.prompt` event on the event stream, and each occurrence audited (`schedule-prompt`).
 * Once that key is revoked or expired the occurrence is refused (the seam records it) and the schedule paused.
 * Occurrences run in a small pool: a slow call holds one slot, never the others, and `stop` aborts what
 * can be aborted (a read; a call that changes data runs to its own deadline, as the seam rules).
 */
import type { ApiKeyRecord, AuthStore } from "../ports/auth-store.js";
import {
  type Schedule,
  type ScheduleOccurrence,
  type ScheduleStore,
  unschedulable,
} from "../ports/schedule-store.js";
import type { AuditEvent, AuditSink } from "../ports/stores.js";
import { type CredentialResolver, createExecutionContext, type Logger } from "../seam/context.js";
import { newEventId } from "../seam/event-id.js";
import type { Seam } from "../seam/seam.js";
import type { SchedulePromptEvent } from "./event-hub.js";
import { newestLiveKey } from "./newest-live-key.js";

export interface SchedulerOptions {
  schedules: ScheduleStore;
  seam: Seam;
  auth: AuthStore;
  /** Where each prompt occurrence is recorded (a tool call's record is the seam's). */
  audit: AuditSink;
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
  /** How many occurrences run at once on this instance; 4 unless given. */
  concurrency?: number;
  /** Epoch milliseconds; the system clock unless given. */
  clock?: () => number;
}

export interface Scheduler {
  /** Claims as many due occurrences as the pool has free slots and runs them; resolves with how many, once they ran. */
  tick(): Promise<number>;
  /** Stops ticking, aborts the occurrences under way and waits for them. */
  stop(): Promise<void>;
}

/** The run a schedule's calls belong to, and the tool call of one occurrence: the same every time it is claimed. */
export const scheduleRunId = (scheduleId: string): string => `schedule:${scheduleId}`;
export const occurrenceCallId = (scheduleId: string, fireAt: number): string =>
  `schedule:${scheduleId}:${fireAt}`;

export function startScheduler(options: SchedulerOptions): Scheduler {
  const { schedules, logger } = options;
  const now = options.clock ?? Date.now;
  const leaseMs = options.leaseMs ?? 10 * 60_000;
  const concurrency = options.concurrency ?? 4;
  const inFlight = new Set<Promise<void>>();
  const stopping = new AbortController();
  let claiming: Promise<unknown> | undefined;
  let stopped = false;

  const fire = async ({ schedule, fireAt }: ScheduleOccurrence): Promise<void> => {
    const { tenantId, principalId, id } = schedule;
    const key = await grantKey(options.auth, schedule);
    const live = key !== undefined && (key.expiresAt === undefined || key.expiresAt > now());
    const runId = scheduleRunId(id);
    const toolCallId = occurrenceCallId(id, fireAt);
    let outcome: string;
    let stop: string | undefined;
    if (!live)
      stop =
        schedule.keyId === undefined
          ? `${principalId} has no live key`
          : `the key ${schedule.keyId} that made it is revoked or expired`;
    if (schedule.action.kind === "tool") {
      const tool = options.seam.registry.get(schedule.action.tool);
      // Checked when it was made, and again now: a schedule never runs a schedule tool, however reached.
      const problem = tool && unschedulable(tool);
      if (problem !== undefined) {
        outcome = "invalid_input";
        stop = problem;
      } else {
        const context = createExecutionContext({
          tenantId,
          principalId,
          runId,
          toolCallId,
          // No live key: a disabled context, which the seam refuses and records like any refused call.
          scopes: live ? key.scopes : [],
          mode: live ? key.mode : "disabled",
          logger,
          signal: stopping.signal,
          ...(tool ? { timeoutMs: tool.limits.timeoutMs } : {}),
          ...(options.credentials ? { credentials: options.credentials } : {}),
        });
        const envelope = await options.seam.call(context, schedule.action.tool, schedule.action.input, {
          onInProgress: "wait",
        });
        outcome = envelope.ok ? "ok" : envelope.error.code;
      }
    } else {
      // A disabled assistant acts on nothing, a prompt included; a repeating schedule goes on for when it is enabled.
      const handed = live && key.mode !== "disabled";
      if (handed)
        options.publish({
          type: "schedule.prompt",
          tenantId,
          principalId,
          scheduleId: id,
          runId,
          prompt: schedule.action.prompt,
          fireAt,
          at: now(),
        });
      outcome = handed ? "published" : "not_authorized";
      await recordPrompt(options, {
        tenantId,
        actor: principalId,
        runId,
        toolCallId,
        at: now(),
        outcome: handed ? "ok" : "not_authorized",
        message: handed
          ? `prompt of schedule ${id} handed to the host`
          : `prompt of schedule ${id} not handed over: ${stop ?? `${principalId}'s key is disabled`}`,
      });
    }
    if (stop !== undefined) outcome = `paused: ${stop}`;
    const completed = await schedules.complete({
      tenantId,
      id,
      fireAt,
      holder: options.holder,
      outcome,
      now: now(),
      pause: stop !== undefined,
    });
    logger.info({ schedule: id, tenantId, principalId, fireAt, outcome, completed }, "schedule fired");
  };

  const start = (occurrence: ScheduleOccurrence): Promise<void> => {
    const run = fire(occurrence)
      .catch((error: unknown) =>
        // Left claimed: once its lease lapses it is claimed again, with the same ids.
        logger.warn({ err: error, schedule: occurrence.schedule.id }, "a scheduled run failed"),
      )
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
    return run;
  };

  const tick = async (): Promise<number> => {
    const free = concurrency - inFlight.size;
    // One claim at a time, and none for a full pool: what is due waits in the store for a free slot.
    if (stopped || claiming || free <= 0) return 0;
    const claim = schedules.claimDue({ now: now(), holder: options.holder, leaseMs, limit: free });
    claiming = claim.catch(() => {});
    let started: Promise<void>[];
    try {
      started = (await claim).map(start);
    } catch (error) {
      logger.warn({ err: error }, "the scheduler could not claim due schedules");
      return 0;
    } finally {
      claiming = undefined;
    }
    await Promise.all(started);
    return started.length;
  };

  // Not awaited: a tick that started slow runs goes on while the next ticks fill the free slots.
  const timer = setInterval(() => void tick(), options.intervalMs ?? 1_000);
  timer.unref();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      stopping.abort();
      await claiming;
      await Promise.all([...inFlight]);
    },
  };
}

/**
 * The key whose grant and mode an occurrence runs under: the one that made the schedule, unless revoked
 * (a newer key of the same principal, gated or not, never stands in for it); the principal's newest live
 * key for a schedule made without one (a host with no API keys).
 */
async function grantKey(auth: AuthStore, schedule: Schedule): Promise<ApiKeyRecord | undefined> {
  const { tenantId, principalId, keyId } = schedule;
  if (keyId === undefined) return newestLiveKey(auth, tenantId, principalId);
  return (await auth.listKeys({ tenantId })).find(
    (key) => key.id === keyId && key.principalId === principalId && key.revokedAt === undefined,
  );
}

/** The audit event of one prompt occurrence: the seam records tool calls, but a prompt never reaches it. */
function recordPrompt(
  options: SchedulerOptions,
  event: Pick<AuditEvent, "tenantId" | "actor" | "runId" | "toolCallId" | "at" | "message"> & {
    outcome: "ok" | "not_authorized";
  },
): Promise<void> {
  const full: AuditEvent = {
    ...event,
    id: newEventId(),
    kind: "schedule-prompt",
    tool: "schedule.prompt",
    toolVersion: undefined,
    effect: undefined,
    durationMs: undefined,
    approvalId: undefined,
    idempotencyKey: undefined,
    approval: undefined,
  };
  return Promise.resolve(options.audit.record(full)).catch((error: unknown) =>
    options.logger.warn({ err: error, event: full }, "a scheduled prompt's audit event was not written"),
  );
}
