/**
 * @module Waiting for a generation that runs for seconds or minutes, bounded by the call: the tool's declared
 * timeout (the context's deadline) and its signal. Polling stops early enough to leave time to download the
 * result. A look that fails for a passing reason (a 5xx, a 429, a look that timed out) is not the end of a
 * paid generation: the generation is taken as still running and looked at again after Retry-After or the
 * interval. Every failure after the generation was created names its id, and a generation given up on (the
 * deadline, or the call cancelled) is asked to stop, best effort, so it does not go on being billed.
 */
import { type EgressClient, type ToolContext, ToolFailure } from "toolreg/toolkit";

export interface PollPlan<T> {
  context: ToolContext;
  intervalMs: number;
  /** The generation in messages: `Replicate prediction abc`. */
  what: string;
  /** The provider's id of the generation, put in every failure's details. */
  generationId: string;
  /** Looks at the generation once. */
  look(): Promise<T>;
  finished(state: T): boolean;
  /** What to say about a generation still running when time is up: its provider, id and state. */
  describe(state: T): string;
  /** Asks the provider to stop the generation; called once, when this call gives up on it. */
  cancel?(): Promise<void>;
}

/** Left for the download after the last look: a fifth of the call's time, at most 30 s. */
const downloadReserve = (totalMs: number) => Math.min(30_000, Math.max(0, totalMs) / 5);
/** The longest one status check may take: a hung one is a failed look, not the end of the call. */
export const LOOK_TIMEOUT_MS = 30_000;
/** The longest a cancel request may hold up the call's answer. */
export const CANCEL_TIMEOUT_MS = 5_000;
/** An abort this close to the deadline is the deadline's (the seam's watchdog firing), not a person's. */
const DEADLINE_SLACK_MS = 100;

/**
 * Asks a vendor to stop a generation this call gave up on, so it is not billed further (`DELETE` at Luma,
 * `POST …/cancel` at Replicate): bounded by CANCEL_TIMEOUT_MS, its answer not read.
 */
export async function requestStop(
  api: EgressClient,
  url: string,
  method: "DELETE" | "POST",
  context: ToolContext,
): Promise<void> {
  await api.request(url, {
    method,
    headers: { accept: "application/json" },
    maxResponseBytes: 64 * 1024,
    timeoutMs: CANCEL_TIMEOUT_MS,
    caller: context,
  });
}

/** Looks until `finished`, sleeping between looks; the first state is the one given. */
export async function pollUntil<T>(first: T, plan: PollPlan<T>): Promise<T> {
  const { context } = plan;
  const reserve = downloadReserve(context.deadline - Date.now());
  let state = first;
  /** The last look's passing failure, said when time runs out before a look succeeds again. */
  let lastFailure: ToolFailure | undefined;
  let waitMs = plan.intervalMs;
  while (!plan.finished(state)) {
    if (Date.now() + waitMs + reserve >= context.deadline) {
      await cancelQuietly(plan);
      throw notFinished(plan, plan.describe(state), lastFailure);
    }
    try {
      await sleep(waitMs, context.signal);
      state = await plan.look();
      lastFailure = undefined;
      waitMs = plan.intervalMs;
    } catch (error) {
      if (context.signal.aborted) {
        await cancelQuietly(plan);
        throw stopped(plan, plan.describe(state));
      }
      if (!ToolFailure.isInstance(error) || error.retryable !== true) throw namingGeneration(plan, error);
      // A 502 from a proxy, a 429, a look that timed out: the generation itself is still running.
      lastFailure = error;
      waitMs = Math.max(plan.intervalMs, error.retryAfterMs ?? 0);
    }
  }
  return state;
}

/**
 * Runs what follows a generation's creation (waiting, downloading) so that any failure names the
 * generation: a model told only "a retry may work" would start, and pay for, a second one.
 */
export async function afterCreation<R>(
  what: string,
  generationId: string,
  run: () => Promise<R>,
): Promise<R> {
  try {
    return await run();
  } catch (error) {
    throw namingGeneration({ what, generationId }, error);
  }
}

function namingGeneration(plan: Pick<PollPlan<unknown>, "what" | "generationId">, error: unknown) {
  if (!ToolFailure.isInstance(error)) return error;
  if (error.details?.generationId === plan.generationId) return error;
  const message = error.message.includes(plan.generationId)
    ? error.message
    : `${plan.what}: ${error.message}`;
  const again =
    error.retryable === true && !/billed for, a new/.test(message)
      ? `. ${plan.what} was already created: calling again starts, and is billed for, a new generation`
      : "";
  return new ToolFailure(error.envelopeCode, `${message}${again}`, {
    ...(error.retryable === undefined ? {} : { retryable: error.retryable }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    details: { ...error.details, generationId: plan.generationId },
    cause: error,
  });
}

function notFinished(plan: PollPlan<unknown>, what: string, lastFailure: ToolFailure | undefined) {
  const looking = lastFailure ? ` (its last status check failed: ${lastFailure.message})` : "";
  return new ToolFailure(
    "timeout",
    `${what} did not finish within this call's time${looking}, so its result was not kept; it was asked to stop${plan.cancel ? "" : " (this provider has no way to)"}. Calling again starts, and is billed for, a new generation — retry only if that is wanted`,
    { retryable: true, details: { generationId: plan.generationId } },
  );
}

/** The call was cancelled before its deadline (a person, a host shutting down): not a timeout to retry. */
function stopped(plan: PollPlan<unknown>, what: string) {
  const byDeadline = Date.now() >= plan.context.deadline - DEADLINE_SLACK_MS;
  if (byDeadline) return notFinished(plan, what, undefined);
  return new ToolFailure(
    "timeout",
    `${what} was abandoned because this call was cancelled; the generation was asked to stop and its result was not kept`,
    { retryable: false, details: { generationId: plan.generationId, aborted: true } },
  );
}

/** Asks the provider to stop, bounded in time; its failure changes nothing the caller can act on. */
async function cancelQuietly(plan: PollPlan<unknown>): Promise<void> {
  if (!plan.cancel) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    plan.cancel().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CANCEL_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}
