/**
 * @module Median nanoseconds a call for several scenarios, each timed a batch at a time, interleaved as
 * bench/measure.ts does but in the reverse order every other round (A B C D, D C B A, …), so that neither
 * a scenario's place in a round nor what ran just before it favours one side of a comparison.
 */
import type { Timing } from "./connections.js";

/** Times one batch. */
export type Batch = () => Promise<Timing>;

/** Each scenario's median wall-clock and median CPU nanoseconds a call, over the rounds after warm-up. */
export async function measureAlternating<Name extends string>(
  batches: Record<Name, Batch>,
  options: { rounds: number; warmupRounds: number },
): Promise<Record<Name, Timing>> {
  const names = Object.keys(batches) as Name[];
  const samples = new Map<Name, Timing[]>(names.map((name) => [name, []]));
  for (let round = 0; round < options.warmupRounds + options.rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const timing = await batches[name]();
      if (round >= options.warmupRounds) samples.get(name)?.push(timing);
    }
  }
  const medians = {} as Record<Name, Timing>;
  for (const name of names) {
    const timings = samples.get(name) ?? [];
    medians[name] = {
      wallNs: median(timings.map((timing) => timing.wallNs)),
      cpuNs: median(timings.map((timing) => timing.cpuNs)),
    };
  }
  return medians;
}

function median(values: number[]): number {
  const sorted = values.sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
