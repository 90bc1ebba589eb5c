/**
 * @module The authentication store port: API keys, one-time login tokens and console sessions. Asynchronous,
 * so an adapter may live on a server that many instances share; each adapter runs auth-store.conformance.ts.
 */
import type { AssistantMode } from "../seam/context.js";

/** Who is calling, as established from an API key or a console session. */
export interface Caller {
  keyId: string;
  tenantId: string;
  principalId: string;
  scopes: readonly string[];
  mode: AssistantMode;
  /** May use the console and decide approvals for its tenant. */
  operator: boolean;
}

/** A stored API key as listed to operators; its secret is never part of it. */
export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  principalId: string;
  scopes: string[];
  mode: AssistantMode;
  operator: boolean;
  label: string | undefined;
  createdAt: number;
  revokedAt: number | undefined;
}

export interface CreateKeyInput {
  tenantId: string;
  principalId: string;
  scopes?: readonly string[];
  mode?: AssistantMode;
  operator?: boolean;
  label?: string;
}

/** What redeeming a login token yields: the session's id (for the cookie) and its CSRF token. */
export interface RedeemedLogin {
  sessionId: string;
  csrfToken: string;
  caller: Caller;
}

export interface LiveSession {
  caller: Caller;
  csrfToken: string;
}

export interface AuthStore {
  /** Creates a key; the plain key is returned once and only its hash is stored. Rejects input it cannot take, naming the field. */
  createKey(input: CreateKeyInput): Promise<{ key: string; record: ApiKeyRecord }>;
  /** The caller behind a presented key, or undefined (unknown, malformed, revoked). Constant-time on the secret. */
  verifyKey(key: string): Promise<Caller | undefined>;
  listKeys(filter?: { tenantId?: string }): Promise<ApiKeyRecord[]>;
  /** Revokes a live key and ends its sessions and login tokens; false when the key is unknown or already revoked. */
  revokeKey(id: string): Promise<boolean>;
  /** Whether any key exists at all, revoked ones included (the server creates an operator key on first start when none does). */
  hasKeys(): Promise<boolean>;
  /** A one-time login token for a live key's console session, valid for ttlMs (default 15 min); rejects for any other key. */
  createLoginToken(keyId: string, ttlMs?: number): Promise<string>;
  /** Redeems a login token once, across every instance: a new session with its own CSRF token; a second redeem, an expired or unknown token → undefined. */
  redeemLoginToken(token: string): Promise<RedeemedLogin | undefined>;
  /** The session's caller and CSRF token while the session is live (default 12 h) and its key not revoked. */
  session(sessionId: string): Promise<LiveSession | undefined>;
  endSession(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

export interface AuthStoreOptions {
  /** Epoch milliseconds; injectable so expiry can be tested. Default `Date.now`. */
  clock?: () => number;
  /** How long a console session lives after its login; default 12 h. */
  sessionTtlMs?: number;
}
