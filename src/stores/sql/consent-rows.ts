/**
 * @module Consents under way and the calls parked on them, as the SQL adapters (SQLite, PostgreSQL) keep
 * them: one column list, one row reading and one order of values per table. A consent's PKCE verifier and
 * authorization URL are sealed together under the operator's key, bound to their row.
 */
import type {
  ConsentRequest,
  NewConsentRequest,
  NewParkedCall,
  ParkedCall,
  ParkedCallStatus,
} from "../../ports/consent-store.js";
import type { AssistantMode } from "../../seam/context.js";
import type { Envelope } from "../../seam/envelope.js";
import type { JsonColumn } from "./rows.js";
import { consentBinding } from "./sealing.js";
import type { SecretBox } from "./secret-box.js";

export interface ConsentRequestRow {
  tenant_id: string;
  id: string;
  principal_id: string;
  credential_ref: string;
  provider: string;
  scopes: unknown;
  state_hash: string;
  sealed: string;
  redirect_uri: string;
  status: "pending" | "used";
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface ParkedCallRow {
  tenant_id: string;
  id: string;
  consent_id: string;
  requested_by: string;
  credential_ref: string;
  tool_name: string;
  definition_hash: string;
  input: unknown;
  run_id: string;
  tool_call_id: string;
  idempotency_key: string;
  fingerprint: string;
  caller_scopes: unknown;
  mode: AssistantMode;
  status: ParkedCallStatus;
  created_at: number;
  expires_at: number;
  result: unknown;
  resumed_at: number | null;
}

export const CONSENT_REQUEST_COLUMNS = `tenant_id, id, principal_id, credential_ref, provider, scopes, state_hash,
  sealed, redirect_uri, status, created_at, expires_at, used_at`;
export const PARKED_CALL_COLUMNS = `tenant_id, id, consent_id, requested_by, credential_ref, tool_name,
  definition_hash, input, run_id, tool_call_id, idempotency_key, fingerprint, caller_scopes, mode, status,
  created_at, expires_at, result, resumed_at`;

/** The columns a new consent is inserted with, status `pending` added by the statement. */
export const NEW_CONSENT_COLUMNS = `tenant_id, id, principal_id, credential_ref, provider, scopes, state_hash,
  key_id, sealed, redirect_uri, created_at, expires_at`;
/** A new consent's twelve values, in NEW_CONSENT_COLUMNS order, its secrets sealed in `box`. */
export const newConsentParams = (box: SecretBox, request: NewConsentRequest) => [
  request.tenantId,
  request.id,
  request.principalId,
  request.credentialRef,
  request.provider,
  JSON.stringify(request.scopes),
  request.stateHash,
  box.keyId,
  box.seal(
    JSON.stringify({ codeVerifier: request.codeVerifier, authorizationUrl: request.authorizationUrl }),
    consentBinding(request),
  ),
  request.redirectUri,
  request.createdAt,
  request.expiresAt,
];

/** The columns a new parked call is inserted with, status `waiting` added by the statement. */
export const NEW_PARKED_CALL_COLUMNS = `tenant_id, id, consent_id, requested_by, credential_ref, tool_name,
  definition_hash, input, run_id, tool_call_id, idempotency_key, fingerprint, caller_scopes, mode, created_at,
  expires_at`;
/** A new parked call's sixteen values, in NEW_PARKED_CALL_COLUMNS order. */
export const newParkedCallParams = (call: NewParkedCall) => [
  call.tenantId,
  call.id,
  call.consentId,
  call.requestedBy,
  call.credentialRef,
  call.toolName,
  call.definitionHash,
  call.input === undefined ? null : JSON.stringify(call.input),
  call.runId,
  call.toolCallId,
  call.idempotencyKey,
  call.fingerprint,
  JSON.stringify(call.callerScopes),
  call.mode,
  call.createdAt,
  call.expiresAt,
];

/** Reads a consent row, opening its sealed secrets with `box`. */
export const consentRequestOf =
  (box: SecretBox, json: JsonColumn) =>
  (row: ConsentRequestRow): ConsentRequest => {
    const { codeVerifier, authorizationUrl } = JSON.parse(
      box.open(row.sealed, consentBinding({ tenantId: row.tenant_id, id: row.id })),
    ) as { codeVerifier: string; authorizationUrl: string };
    return {
      tenantId: row.tenant_id,
      id: row.id,
      principalId: row.principal_id,
      credentialRef: row.credential_ref,
      provider: row.provider,
      scopes: json(row.scopes) as string[],
      stateHash: row.state_hash,
      codeVerifier,
      redirectUri: row.redirect_uri,
      authorizationUrl,
      status: row.status,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      usedAt: row.used_at ?? undefined,
    };
  };

export const parkedCallOf =
  (json: JsonColumn) =>
  (row: ParkedCallRow): ParkedCall => ({
    tenantId: row.tenant_id,
    id: row.id,
    consentId: row.consent_id,
    requestedBy: row.requested_by,
    credentialRef: row.credential_ref,
    toolName: row.tool_name,
    definitionHash: row.definition_hash,
    input: json(row.input),
    runId: row.run_id,
    toolCallId: row.tool_call_id,
    idempotencyKey: row.idempotency_key,
    fingerprint: row.fingerprint,
    callerScopes: json(row.caller_scopes) as string[],
    mode: row.mode,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    result: json(row.result) as Envelope | undefined,
    resumedAt: row.resumed_at ?? undefined,
  });
