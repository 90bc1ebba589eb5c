/**
 * @module A count of events over a sliding window, kept in slots: memory is a fixed ring per count, however
 * many events it holds. An event counts from its slot until a whole window has passed after that slot
 * ends, so it is never forgotten before one window after it happened, and held at most one slot longer
 * (1/60 of the window by default; under two when the window is not a whole number of slots): "at most N in
 * any window" holds exactly, and a caller told to wait waits at most that much too long.
 */

/** How a window is cut into slots. */
export interface WindowShape {
  readonly windowMs: number;
  readonly slotMs: number;
  /** Slots kept: enough to cover a whole window behind the current slot. */
  readonly ring: number;
}

/** A window of `windowMs` counted in about `slots` slots (at least a millisecond each). */
export function windowShape(windowMs: number, slots = 60): WindowShape {
  if (!Number.isSafeInteger(windowMs) || windowMs < 1) {
    throw new RangeError("a window is a whole number of milliseconds, at least 1");
  }
  const slotMs = Math.max(1, Math.ceil(windowMs / slots));
  return { windowMs, slotMs, ring: Math.ceil(windowMs / slotMs) + 1 };
}

export class SlidingCount {
  readonly #shape: WindowShape;
  readonly #counts: Uint32Array;
  /** The absolute slot (epoch milliseconds / slotMs) the ring's newest entry is for. */
  #newest: number;
  #total = 0;

  constructor(shape: WindowShape, now: number) {
    this.#shape = shape;
    this.#counts = new Uint32Array(shape.ring);
    this.#newest = Math.floor(now / shape.slotMs);
  }

  /** Events still counted at `now`. */
  count(now: number): number {
    this.#advance(now);
    return this.#total;
  }

  add(now: number): void {
    this.#advance(now);
    this.#counts[this.#index(this.#newest)]! += 1;
    this.#total += 1;
  }

  /** How long until fewer than `limit` events are counted; 0 when that is so now. */
  msUntilBelow(limit: number, now: number): number {
    this.#advance(now);
    let remaining = this.#total;
    if (remaining < limit) return 0;
    const { ring, slotMs } = this.#shape;
    for (let slot = this.#newest - ring + 1; slot <= this.#newest; slot++) {
      remaining -= this.#counts[this.#index(slot)]!;
      // The slot leaves the count when the ring has moved a whole ring past it.
      if (remaining < limit) return Math.max(1, (slot + ring) * slotMs - now);
    }
    return (this.#newest + ring) * slotMs - now;
  }

  /** Forgets the slots that have left the window since the last look. A clock that went back adds to the newest. */
  #advance(now: number): void {
    const slot = Math.floor(now / this.#shape.slotMs);
    if (slot <= this.#newest) return;
    if (slot - this.#newest >= this.#shape.ring) {
      this.#counts.fill(0);
      this.#total = 0;
    } else {
      for (let passed = this.#newest + 1; passed <= slot; passed++) {
        const index = this.#index(passed);
        this.#total -= this.#counts[index]!;
        this.#counts[index] = 0;
      }
    }
    this.#newest = slot;
  }

  #index(slot: number): number {
    const ring = this.#shape.ring;
    return ((slot % ring) + ring) % ring;
  }
}
