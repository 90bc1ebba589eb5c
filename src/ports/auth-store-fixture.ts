/** @module What each auth store adapter hands its conformance suite: the store, a second connection, its rows. */
import type { AuthStore } from "./auth-store.js";

/** The tables every adapter keeps, under these names, so a test can show that only hashes are stored. */
export type AuthTable =
  | "auth_keys"
  | "auth_login_tokens"
  | "auth_sessions"
  | "auth_grant_tokens"
  | "auth_oauth_clients";

export interface AuthStoreFixture {
  store: AuthStore;
  /** Another connection to the same storage, as a second process or instance opens it. */
  open(): Promise<AuthStore>;
  /** One table's rows as stored, hashes as Buffers. */
  rows(table: AuthTable): Promise<Record<string, unknown>[]>;
  cleanup(): Promise<void>;
}
