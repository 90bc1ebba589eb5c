/**
 * @module SQLite consent store: pending consents (their PKCE verifier and authorization URL sealed under the
 * operator's key, like credentials) and parked calls, in the shared state file. Opening a consent and
 * parking a call each run in one immediate transaction, so processes sharing the file agree.
 */
import type Database from "better-sqlite3";
import type {
  ConsentRequest,
  ConsentStore,
  NewConsentRequest,
  NewParkedCall,
  ParkedCall,
  ParkedCallStatus,
} from "../../ports/consent-store.js";
import { covers } from "../../ports/consent-store.js";
import type { AssistantMode } from "../../seam/context.js";
import type { Envelope } from "../../seam/envelope.js";
import { consentBinding, sealingBox } from "../sql/sealing.js";
import { checkSealingKey } from "./credentials.js";

interface RequestRow {
  tenant_id: string;
  id: string;
  principal_id: string;
  credential_ref: string;
  provider: string;
  scopes: string;
  state_hash: string;
  key_id: string;
  sealed: string;
  redirect_uri: string;
  status: "pending" | "used";
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

interface CallRow {
  tenant_id: string;
  id: string;
  consent_id: string;
  requested_by: string;
  credential_ref: string;
  tool_name: string;
  definition_hash: string;
  input: string | null;
  run_id: string;
  tool_call_id: string;
  idempotency_key: string;
  fingerprint: string;
  caller_scopes: string;
  mode: AssistantMode;
  status: ParkedCallStatus;
  created_at: number;
  expires_at: number;
  result: string | null;
  resumed_at: number | null;
}

const toCall = (row: CallRow): ParkedCall => ({
  tenantId: row.tenant_id,
  id: row.id,
  consentId: row.consent_id,
  requestedBy: row.requested_by,
  credentialRef: row.credential_ref,
  toolName: row.tool_name,
  definitionHash: row.definition_hash,
  input: row.input === null ? undefined : JSON.parse(row.input),
  runId: row.run_id,
  toolCallId: row.tool_call_id,
  idempotencyKey: row.idempotency_key,
  fingerprint: row.fingerprint,
  callerScopes: JSON.parse(row.caller_scopes) as string[],
  mode: row.mode,
  status: row.status,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  result: row.result === null ? undefined : (JSON.parse(row.result) as Envelope),
  resumedAt: row.resumed_at ?? undefined,
});

/** Opens the consent store on `db` under the same key as the credentials; throws without it or with another. */
export function createSqliteConsentStore(db: Database.Database, key: Uint8Array | undefined): ConsentStore {
  const box = sealingBox("consent", key);
  checkSealingKey(db, box, ["consent_requests"]);
  const toRequest = (row: RequestRow): ConsentRequest => {
    const { codeVerifier, authorizationUrl } = JSON.parse(
      box.open(row.sealed, consentBinding({ tenantId: row.tenant_id, id: row.id })),
    ) as { codeVerifier: string; authorizationUrl: string };
    return {
      tenantId: row.tenant_id,
      id: row.id,
      principalId: row.principal_id,
      credentialRef: row.credential_ref,
      provider: row.provider,
      scopes: JSON.parse(row.scopes) as string[],
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

  const pendingOf = db.prepare<[string, string, string, number], RequestRow>(
    `SELECT * FROM consent_requests WHERE tenant_id = ? AND principal_id = ? AND credential_ref = ?
       AND status = 'pending' AND expires_at > ? ORDER BY created_at`,
  );
  const insertRequest = db.prepare(
    `INSERT INTO consent_requests (tenant_id, id, principal_id, credential_ref, provider, scopes, state_hash,
       key_id, sealed, redirect_uri, status, created_at, expires_at, used_at)
     VALUES (@tenant_id, @id, @principal_id, @credential_ref, @provider, @scopes, @state_hash, @key_id, @sealed,
       @redirect_uri, 'pending', @created_at, @expires_at, NULL)`,
  );
  const getRequest = db.prepare<[string, string], RequestRow>(
    "SELECT * FROM consent_requests WHERE tenant_id = ? AND id = ?",
  );
  const byState = db.prepare<[string], RequestRow>("SELECT * FROM consent_requests WHERE state_hash = ?");
  const use = db.prepare<[number, string, string]>(
    "UPDATE consent_requests SET status = 'used', used_at = ? WHERE tenant_id = ? AND id = ? AND status = 'pending'",
  );
  const newestByKey = db.prepare<[string, string], CallRow>(
    `SELECT * FROM parked_calls WHERE tenant_id = ? AND idempotency_key = ? AND status != 'expired'
     ORDER BY created_at DESC LIMIT 1`,
  );
  const insertCall = db.prepare(
    `INSERT INTO parked_calls (tenant_id, id, consent_id, requested_by, credential_ref, tool_name, definition_hash,
       input, run_id, tool_call_id, idempotency_key, fingerprint, caller_scopes, mode, status, created_at,
       expires_at, result, resumed_at)
     VALUES (@tenant_id, @id, @consent_id, @requested_by, @credential_ref, @tool_name, @definition_hash, @input,
       @run_id, @tool_call_id, @idempotency_key, @fingerprint, @caller_scopes, @mode, 'waiting', @created_at,
       @expires_at, NULL, NULL)`,
  );
  const getCall = db.prepare<[string, string], CallRow>(
    "SELECT * FROM parked_calls WHERE tenant_id = ? AND id = ?",
  );
  const waiting = db.prepare<[string, string, string], CallRow>(
    `SELECT * FROM parked_calls WHERE tenant_id = ? AND requested_by = ? AND credential_ref = ? AND status = 'waiting'
     ORDER BY created_at, id`,
  );
  const settle = db.prepare<[string, number, string, string]>(
    `UPDATE parked_calls SET status = 'resumed', result = ?, resumed_at = ?
     WHERE tenant_id = ? AND id = ? AND status = 'waiting'`,
  );
  const expireCalls = db.prepare<[number]>(
    "UPDATE parked_calls SET status = 'expired' WHERE status = 'waiting' AND expires_at <= ?",
  );
  const dropRequests = db.prepare<[number]>(
    "DELETE FROM consent_requests WHERE status = 'used' OR expires_at <= ?",
  );

  const open = db.transaction((request: NewConsentRequest) => {
    for (const row of pendingOf.all(
      request.tenantId,
      request.principalId,
      request.credentialRef,
      request.createdAt,
    )) {
      const pending = toRequest(row);
      if (covers(pending, request.scopes, request.createdAt)) return { created: false, request: pending };
    }
    insertRequest.run({
      tenant_id: request.tenantId,
      id: request.id,
      principal_id: request.principalId,
      credential_ref: request.credentialRef,
      provider: request.provider,
      scopes: JSON.stringify(request.scopes),
      state_hash: request.stateHash,
      key_id: box.keyId,
      sealed: box.seal(
        JSON.stringify({ codeVerifier: request.codeVerifier, authorizationUrl: request.authorizationUrl }),
        consentBinding(request),
      ),
      redirect_uri: request.redirectUri,
      created_at: request.createdAt,
      expires_at: request.expiresAt,
    });
    return { created: true, request: toRequest(getRequest.get(request.tenantId, request.id) as RequestRow) };
  });
  const take = db.transaction((stateHash: string, consentIds: readonly string[], now: number) => {
    const row = byState.get(stateHash);
    if (row?.status !== "pending" || row.expires_at <= now || !consentIds.includes(row.id)) return undefined;
    use.run(now, row.tenant_id, row.id);
    return toRequest({ ...row, status: "used", used_at: now });
  });
  const park = db.transaction((call: NewParkedCall) => {
    const parked = newestByKey.get(call.tenantId, call.idempotencyKey);
    if (parked) return { created: false, call: toCall(parked) };
    insertCall.run({
      tenant_id: call.tenantId,
      id: call.id,
      consent_id: call.consentId,
      requested_by: call.requestedBy,
      credential_ref: call.credentialRef,
      tool_name: call.toolName,
      definition_hash: call.definitionHash,
      input: call.input === undefined ? null : JSON.stringify(call.input),
      run_id: call.runId,
      tool_call_id: call.toolCallId,
      idempotency_key: call.idempotencyKey,
      fingerprint: call.fingerprint,
      caller_scopes: JSON.stringify(call.callerScopes),
      mode: call.mode,
      created_at: call.createdAt,
      expires_at: call.expiresAt,
    });
    return { created: true, call: toCall(getCall.get(call.tenantId, call.id) as CallRow) };
  });
  const expire = db.transaction(
    (now: number) => expireCalls.run(now).changes + dropRequests.run(now).changes,
  );

  return {
    async open(request) {
      return open.immediate(request);
    },
    async take({ stateHash, consentIds, now }) {
      return take.immediate(stateHash, consentIds, now);
    },
    async getRequest({ tenantId, id }) {
      const row = getRequest.get(tenantId, id);
      return row && toRequest(row);
    },
    async park(call) {
      return park.immediate(call);
    },
    async getCall({ tenantId, id }) {
      const row = getCall.get(tenantId, id);
      return row && toCall(row);
    },
    async waiting({ tenantId, principalId, credentialRef }) {
      return waiting.all(tenantId, principalId, credentialRef).map(toCall);
    },
    async settle({ tenantId, id, result, at }) {
      return settle.run(JSON.stringify(result), at, tenantId, id).changes === 1;
    },
    async expire({ now }) {
      return expire.immediate(now);
    },
  };
}
