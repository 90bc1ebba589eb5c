/** @module One token bucket: `capacity` tokens, refilled continuously at `perSecond`. */

export class TokenBucket {
  readonly #capacity: number;
  readonly #perSecond: number;
  #tokens: number;
  #updatedAt: number;

  /** A full bucket at `now`. */
  constructor(capacity: number, perSecond: number, now: number) {
    this.#capacity = capacity;
    this.#perSecond = perSecond;
    this.#tokens = capacity;
    this.#updatedAt = now;
  }

  /** How long until a whole token is in the bucket; 0 when one is now. */
  msUntilToken(now: number): number {
    const tokens = this.#refill(now);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / this.#perSecond) * 1000);
  }

  /** Takes a token; call after `msUntilToken` said one is there. */
  take(now: number): void {
    this.#tokens = this.#refill(now) - 1;
  }

  /** Whether the bucket is full again, so forgetting it changes nothing. */
  full(now: number): boolean {
    return this.#refill(now) >= this.#capacity;
  }

  #refill(now: number): number {
    const elapsedSeconds = Math.max(0, now - this.#updatedAt) / 1000;
    this.#tokens = Math.min(this.#capacity, this.#tokens + elapsedSeconds * this.#perSecond);
    this.#updatedAt = Math.max(this.#updatedAt, now);
    return this.#tokens;
  }
}
