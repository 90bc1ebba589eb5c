/**
 * @module The authentication store port: API keys, one-time login tokens, console sessions, and what the
 * server's OAuth grants need (registered clients, codes, refresh tokens, expiring keys). Asynchronous,
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
  /** When an expiring key (an OAuth access token) stops verifying; undefined for a key that does not expire. */
  expiresAt: number | undefined;
}

export interface CreateKeyInput {
  tenantId: string;
  principalId: string;
  scopes?: readonly string[];
  mode?: AssistantMode;
  operator?: boolean;
  label?: string;
  /** Epoch ms past which the key no longer verifies (it can still be renewed or revoked). */
  expiresAt?: number;
}

/** What an OAuth grant keeps between its steps: an authorization code, or a refresh token. */
export type GrantTokenKind = "code" | "refresh";

export interface CreateGrantTokenInput {
  kind: GrantTokenKind;
  /** The key the token acts for: the consenting user's (a code), the grant's own (a refresh token). */
  keyId: string;
  /** What the token is bound to, as JSON the store keeps but never reads. */
  payload: string;
  ttlMs: number;
}

export interface RedeemedGrantToken {
  /** The token's key as a caller: the consenting user (a code), the grant (a refresh token). */
  caller: Caller;
  payload: string;
}

/** An OAuth client registered dynamically (RFC 7591); its metadata is JSON the store keeps but never reads. */
export interface OAuthClientRecord {
  clientId: string;
  metadata: string;
  createdAt: number;
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
  /** Revokes a live key and ends its sessions, login tokens and grant tokens; false when the key is unknown or already revoked. */
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
  /** A new secret for a key not revoked, valid until `expiresAt`; the old secret stops verifying. Undefined for an unknown or revoked key. */
  renewKey(id: string, expiresAt: number): Promise<string | undefined>;
  /** A one-time grant token for a live key, valid for ttlMs; rejects for any other key. */
  createGrantToken(input: CreateGrantTokenInput): Promise<string>;
  /**
   * Redeems a grant token of that kind once, across every instance; undefined when used, expired, unknown,
   * of the other kind, or its key revoked. A key's expiry does not stop it: a refresh token outlives its access token.
   */
  redeemGrantToken(kind: GrantTokenKind, token: string): Promise<RedeemedGrantToken | undefined>;
  /**
   * The key of a grant token of that kind that was already redeemed and has not expired, its key not
   * revoked; undefined for any other. A spent token is kept until its own end, so its reuse can be told
   * apart from a token never issued (OAuth 2.1 §4.3.1: a rotated refresh token presented again).
   */
  spentGrantToken(kind: GrantTokenKind, token: string): Promise<string | undefined>;
  /** Registers an OAuth client under a new id. */
  registerClient(metadata: string): Promise<OAuthClientRecord>;
  client(clientId: string): Promise<OAuthClientRecord | undefined>;
  /** Marks a client used (a user consented to it): it is kept from then on. Unknown ids are ignored. */
  markClientUsed(clientId: string): Promise<void>;
  /**
   * Deletes the clients registered before `registeredBefore` that were never used, and tells how many
   * never-used clients remain: open registration bounded by age and by count.
   */
  pruneUnusedClients(registeredBefore: number): Promise<number>;
  close(): Promise<void>;
}

export interface AuthStoreOptions {
  /** Epoch milliseconds; injectable so expiry can be tested. Default `Date.now`. */
  clock?: () => number;
  /** How long a console session lives after its login; default 12 h. */
  sessionTtlMs?: number;
}
