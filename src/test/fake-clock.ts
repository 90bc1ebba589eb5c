/** @module A clock that moves only when told, for expiry, lease and retention tests. */

export interface FakeClock {
  /** Pass as `clock` to the seam. */
  readonly now: () => number;
  advance(ms: number): void;
  set(epochMs: number): void;
}

export function createFakeClock(startMs = Date.UTC(2026, 0, 1)): FakeClock {
  let current = startMs;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
    set(epochMs) {
      current = epochMs;
    },
  };
}
