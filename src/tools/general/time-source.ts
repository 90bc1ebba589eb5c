/** @module Providers behind the `now` tool: where the current time comes from is the deployment's choice. */

export interface TimeSource {
  /** Shown in the result, so a reader can tell a pinned clock from the system's. */
  readonly name: string;
  now(): number | Promise<number>;
}

/** The host's system clock. */
export const systemTimeSource: TimeSource = { name: "system", now: () => Date.now() };

/** A pinned instant, for replays, demos and reproducible evaluations. */
export function fixedTimeSource(epochMs: number): TimeSource {
  if (!Number.isFinite(epochMs)) throw new RangeError("fixedTimeSource needs a finite epoch in milliseconds");
  return { name: "fixed", now: () => epochMs };
}
