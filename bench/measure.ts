/** @module Median nanoseconds per call for several scenarios, measured interleaved so machine noise hits all alike. */

export interface Scenario {
  call: (i: number) => unknown;
  /** Awaited calls per timed batch; fewer for slow (I/O) scenarios. */
  batch: number;
}

/**
 * Runs every scenario's batch once per round, round after round, after warm-up rounds, and returns each
 * scenario's median ns per call. Interleaving keeps a burst of noise from landing on one scenario only.
 */
export async function measureInterleaved<Name extends string>(
  scenarios: Record<Name, Scenario>,
  options: { rounds?: number; warmupRounds?: number } = {},
): Promise<Record<Name, number>> {
  const rounds = options.rounds ?? 21;
  const warmupRounds = options.warmupRounds ?? 3;
  const names = Object.keys(scenarios) as Name[];
  const samples = new Map<Name, number[]>(names.map((name) => [name, []]));
  const counters = new Map<Name, number>(names.map((name) => [name, 0]));
  for (let round = 0; round < warmupRounds + rounds; round++) {
    for (const name of names) {
      const { call, batch } = scenarios[name];
      let i = counters.get(name) ?? 0;
      const started = process.hrtime.bigint();
      for (let n = 0; n < batch; n++) await call(i++);
      const elapsed = Number(process.hrtime.bigint() - started);
      counters.set(name, i);
      if (round >= warmupRounds) samples.get(name)?.push(elapsed / batch);
    }
  }
  const medians = {} as Record<Name, number>;
  for (const name of names) {
    const sorted = (samples.get(name) ?? []).sort((a, b) => a - b);
    medians[name] = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  }
  return medians;
}
