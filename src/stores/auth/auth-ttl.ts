/** @module How long login tokens and console sessions live, and the check every auth store adapter applies to both. */
import type { AuthStoreOptions } from "../../ports/auth-store.js";

export const LOGIN_TOKEN_TTL_MS = 15 * 60 * 1000;
const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export function checkTtl(field: string, ttlMs: number): number {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0)
    throw new RangeError(`auth store: ${field} must be a positive whole number of milliseconds`);
  return ttlMs;
}

export const sessionTtlOf = (options: AuthStoreOptions): number =>
  checkTtl("sessionTtlMs", options.sessionTtlMs ?? SESSION_TTL_MS);
