/** @module The nearest-rank percentile the benchmarks report their latencies by. */

/** The value at `fraction` (0.99 for p99) of ascending `sorted`, by nearest rank; NaN when empty. */
export function percentile(sorted: readonly number[], fraction: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN
  );
}
