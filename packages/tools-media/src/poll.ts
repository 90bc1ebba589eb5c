/**
 * @module Waiting for a generation that runs for seconds or minutes, bounded by the call: the tool's declared
 * timeout (the context's deadline) and its signal. Polling stops early enough to leave time to download the
 * result, and a generation that has not finished by then fails naming the provider's id for it.
 */
import { type ToolContext, ToolFailure } from "toolreg/toolkit";

export interface PollPlan<T> {
  context: ToolContext;
  intervalMs: number;
  /** Looks at the generation once. */
  look(): Promise<T>;
  finished(state: T): boolean;
  /** What to say about a generation still running when time is up: its provider, id and state. */
  describe(state: T): string;
}

/** Left for the download after the last look: a fifth of the call's time, at most 30 s. */
const downloadReserve = (totalMs: number) => Math.min(30_000, Math.max(0, totalMs) / 5);

/** Looks until `finished`, sleeping `intervalMs` between looks; the first state is the one given. */
export async function pollUntil<T>(first: T, plan: PollPlan<T>): Promise<T> {
  const { context } = plan;
  const reserve = downloadReserve(context.deadline - Date.now());
  let state = first;
  while (!plan.finished(state)) {
    if (Date.now() + plan.intervalMs + reserve >= context.deadline) throw notFinished(plan.describe(state));
    await sleep(plan.intervalMs, context.signal, () => notFinished(plan.describe(state)));
    state = await plan.look();
  }
  return state;
}

function notFinished(what: string): ToolFailure {
  return new ToolFailure(
    "timeout",
    `${what} did not finish within this call's time, so its result was not kept. It may still finish at the provider; calling again starts, and is billed for, a new generation — retry only if that is wanted`,
    { retryable: true },
  );
}

function sleep(ms: number, signal: AbortSignal, aborted: () => ToolFailure): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(aborted());
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}
