/**
 * @module The port for consents under way: the authorization a user was sent to (its state, PKCE verifier and
 * URL), and the calls parked until the user connects. One pending consent serves every call of one user
 * waiting on one credential; a state is used once.
 */
import type { AssistantMode } from "../seam/context.js";
import type { Envelope } from "../seam/envelope.js";
import type { TenantKey } from "./stores.js";

export interface ConsentRequest {
  tenantId: string;
  id: string;
  /** The user who is to consent: the credential is stored as theirs. */
  principalId: string;
  credentialRef: string;
  provider: string;
  scopes: readonly string[];
  /** sha256 of the `state` sent to the provider: the callback finds its request by it. */
  stateHash: string;
  /** PKCE (RFC 7636): sent to the token endpoint only, with the code. Secret. */
  codeVerifier: string;
  redirectUri: string;
  /** What the user opens; it carries the state, so it is kept as secret as the verifier. */
  authorizationUrl: string;
  status: "pending" | "used";
  createdAt: number;
  expiresAt: number;
  usedAt: number | undefined;
}

export type NewConsentRequest = Omit<ConsentRequest, "status" | "usedAt">;

export const PARKED_CALL_STATUSES = ["waiting", "resumed", "expired"] as const;
export type ParkedCallStatus = (typeof PARKED_CALL_STATUSES)[number];

/** A call that waits for its user's consent: what resuming it needs, and what it came to once resumed. */
export interface ParkedCall {
  tenantId: string;
  id: string;
  /** The consent it was first parked under; any later consent to the same credential resumes it too. */
  consentId: string;
  requestedBy: string;
  credentialRef: string;
  toolName: string;
  definitionHash: string;
  /** The arguments as sent: resuming validates them again. */
  input: unknown;
  runId: string;
  toolCallId: string;
  idempotencyKey: string;
  fingerprint: string;
  /** The caller's scopes and mode when it called: authorization is checked again with them on resume. */
  callerScopes: readonly string[];
  mode: AssistantMode;
  status: ParkedCallStatus;
  createdAt: number;
  expiresAt: number;
  /** What resuming it answered; a later resume answers the same. */
  result: Envelope | undefined;
  resumedAt: number | undefined;
}

export type NewParkedCall = Omit<ParkedCall, "status" | "result" | "resumedAt">;

export interface ConsentStore {
  /**
   * The pending, unexpired request of this user and credential whose scopes include `request.scopes`, or
   * `request` stored as a new one. Atomic across processes: parallel calls share one consent.
   */
  open(request: NewConsentRequest): Promise<{ created: boolean; request: ConsentRequest }>;
  /**
   * The pending, unexpired request with this state hash, marked used: a state works once. Only a request
   * among `consentIds` (the consents the user's browser was bound to) is taken; another is left untouched.
   */
  take(input: {
    stateHash: string;
    consentIds: readonly string[];
    now: number;
  }): Promise<ConsentRequest | undefined>;
  getRequest(input: TenantKey & { id: string }): Promise<ConsentRequest | undefined>;
  /**
   * Parks `call` unless the tenant already has a call parked under its key that has not expired, which is
   * returned untouched: duplicates of one call park once.
   */
  park(call: NewParkedCall): Promise<{ created: boolean; call: ParkedCall }>;
  getCall(input: TenantKey & { id: string }): Promise<ParkedCall | undefined>;
  /** The calls of one user still waiting on one credential, oldest first. */
  waiting(input: TenantKey & { principalId: string; credentialRef: string }): Promise<ParkedCall[]>;
  /** Waiting → resumed with what resuming answered, once; false when it was not waiting. */
  settle(input: TenantKey & { id: string; result: Envelope; at: number }): Promise<boolean>;
  /** Housekeeping over every tenant: waiting calls past their expiry expire, used and expired requests go. */
  expire(input: { now: number }): Promise<number>;
}

/** Whether a pending request can serve a call that needs `scopes`. */
export function covers(request: ConsentRequest, scopes: readonly string[], now: number): boolean {
  return (
    request.status === "pending" &&
    request.expiresAt > now &&
    scopes.every((scope) => request.scopes.includes(scope))
  );
}
