/**
 * @module How often one client address may register OAuth clients. Registration is open (the MCP spec
 * expects it) and every registration is a row in the store, so an address that registers more than a
 * handful a minute is refused with 429 until its count falls; memory is bounded as for failed logins.
 */
import { SlidingCount, type WindowShape, windowShape } from "../../policy/sliding-count.js";

export interface RegistrationLimitSettings {
  /** Registrations one address may make in a minute; 10 unless given. */
  perMinute?: number;
  /** Addresses tracked at most; past it the counts start again (a flood from many addresses is bounded below). */
  maxAddresses?: number;
  clock?: () => number;
}

const MINUTE = 60_000;

export class RegistrationLimit {
  readonly #limit: number;
  readonly #shape: WindowShape = windowShape(MINUTE, 12);
  readonly #maxAddresses: number;
  readonly #now: () => number;
  readonly #counts = new Map<string, SlidingCount>();

  constructor(settings: RegistrationLimitSettings = {}) {
    this.#limit = settings.perMinute ?? 10;
    if (!Number.isSafeInteger(this.#limit) || this.#limit < 1) {
      throw new RangeError("oauth registrationsPerMinute is a whole number, at least 1");
    }
    this.#maxAddresses = settings.maxAddresses ?? 10_000;
    this.#now = settings.clock ?? Date.now;
  }

  /** Counts a registration from `address`; the milliseconds to wait instead when it has made its share. */
  take(address: string): { ok: true } | { ok: false; retryAfterMs: number } {
    const now = this.#now();
    let count = this.#counts.get(address);
    if (!count) {
      if (this.#counts.size >= this.#maxAddresses) this.#counts.clear();
      count = new SlidingCount(this.#shape, now);
      this.#counts.set(address, count);
    }
    const waitMs = count.msUntilBelow(this.#limit, now);
    if (waitMs > 0) return { ok: false, retryAfterMs: waitMs };
    count.add(now);
    return { ok: true };
  }
}
