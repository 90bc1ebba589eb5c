/** @module Median nanoseconds per call for several scenarios, measured interleaved so machine noise hits all alike. */

export interface Scenario {
  call: (i: number) => unknown;
  /** The fewest awaited calls in a timed sample; more are made if that takes less than `sampleMs`. */
  batch: number;
}

/**
 * Runs every scenario's sample once per round, round after round, after warm-up rounds, and returns each
 * scenario's median ns per call. Interleaving keeps a burst of noise from landing on one scenario only.
 *
 * The warm-up rounds size each scenario's sample to span about `sampleMs` (5 ms unless given): a
 * young-generation collection pauses for around half a millisecond here, so a sample much shorter than
 * that either holds a whole pause or none, and a fast scenario's median would leave out the collections
 * its own allocations cause while a slower one's kept them.
 */
export async function measureInterleaved<Name extends string>(
  scenarios: Record<Name, Scenario>,
  options: { rounds?: number; warmupRounds?: number; sampleMs?: number } = {},
): Promise<Record<Name, number>> {
  const rounds = options.rounds ?? 21;
  const warmupRounds = Math.max(1, options.warmupRounds ?? 5);
  const sampleNs = (options.sampleMs ?? 5) * 1e6;
  const names = Object.keys(scenarios) as Name[];
  const samples = new Map<Name, number[]>(names.map((name) => [name, []]));
  const counters = new Map<Name, number>(names.map((name) => [name, 0]));
  const batches = new Map<Name, number>(names.map((name) => [name, scenarios[name].batch]));
  const fastestNs = new Map<Name, number>();
  for (let round = 0; round < warmupRounds + rounds; round++) {
    for (const name of names) {
      const { call, batch: fewest } = scenarios[name];
      const batch = batches.get(name) ?? fewest;
      let i = counters.get(name) ?? 0;
      const started = process.hrtime.bigint();
      for (let n = 0; n < batch; n++) await call(i++);
      const elapsed = Number(process.hrtime.bigint() - started);
      counters.set(name, i);
      if (round < warmupRounds) {
        // Sized by the fastest warm-up sample: noise only ever makes a sample slower.
        const fastest = Math.min(fastestNs.get(name) ?? Number.POSITIVE_INFINITY, elapsed / batch);
        fastestNs.set(name, fastest);
        if (round === warmupRounds - 1) batches.set(name, Math.max(fewest, Math.ceil(sampleNs / fastest)));
      }
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
