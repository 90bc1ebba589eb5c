/**
 * @module Verified API keys, remembered for a second. Checking a key in the store costs a quarter of a manifest
 * request (bench/server.ts); a second's memory makes it nearly free. The price: a key revoked by another
 * process (`toolreg keys revoke`) keeps working for up to that second, unless the instances share an event
 * bus, which says so at once (`forget`). Only successes are remembered, so an unknown key is always checked.
 */
import type { AuthStore, Caller } from "../ports/auth-store.js";

export const KEY_CACHE_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

export class VerifiedKeys {
  readonly #auth: AuthStore;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { caller: Caller; until: number }>();

  constructor(auth: AuthStore, options: { ttlMs?: number; clock?: () => number } = {}) {
    this.#auth = auth;
    this.#ttlMs = options.ttlMs ?? KEY_CACHE_TTL_MS;
    this.#now = options.clock ?? Date.now;
  }

  async verify(key: string): Promise<Caller | undefined> {
    const now = this.#now();
    const cached = this.#entries.get(key);
    if (cached && cached.until > now) return cached.caller;
    const caller = await this.#auth.verifyKey(key);
    if (!caller) {
      this.#entries.delete(key);
      return undefined;
    }
    // A bound, not a policy: past it the cache starts over.
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key, { caller, until: now + this.#ttlMs });
    return caller;
  }

  /** Drops a revoked key at once, told by the instance where it was revoked. */
  forget(keyId: string): void {
    for (const [key, entry] of this.#entries) if (entry.caller.keyId === keyId) this.#entries.delete(key);
  }
}
