/**
 * @module PostgreSQL consent store: pending consents (their PKCE verifier and authorization URL sealed under
 * the operator's key, as the SQLite store seals them) and parked calls. Opening a consent and parking a call
 * each find-or-create under an advisory lock on their key; taking a state is one UPDATE, so of instances
 * racing for one state exactly one gets it.
 */
import type pg from "pg";
import {
  type ConsentRequest,
  type ConsentStore,
  covers,
  type ParkedCall,
  type ParkedCallStatus,
} from "../../ports/consent-store.js";
import type { AssistantMode } from "../../seam/context.js";
import type { Envelope } from "../../seam/envelope.js";
import { consentBinding, sealingBox } from "../sql/sealing.js";
import { checkPostgresSealingKey } from "./credentials.js";
import { underLock } from "./under-lock.js";

interface RequestRow {
  tenant_id: string;
  id: string;
  principal_id: string;
  credential_ref: string;
  provider: string;
  scopes: string[];
  state_hash: string;
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
  input: unknown;
  run_id: string;
  tool_call_id: string;
  idempotency_key: string;
  fingerprint: string;
  caller_scopes: string[];
  mode: AssistantMode;
  status: ParkedCallStatus;
  created_at: number;
  expires_at: number;
  result: Envelope | null;
  resumed_at: number | null;
}

const REQUEST_COLUMNS = `tenant_id, id, principal_id, credential_ref, provider, scopes, state_hash, sealed,
  redirect_uri, status, created_at, expires_at, used_at`;
const CALL_COLUMNS = `tenant_id, id, consent_id, requested_by, credential_ref, tool_name, definition_hash, input,
  run_id, tool_call_id, idempotency_key, fingerprint, caller_scopes, mode, status, created_at, expires_at, result,
  resumed_at`;

const toCall = (row: CallRow): ParkedCall => ({
  tenantId: row.tenant_id,
  id: row.id,
  consentId: row.consent_id,
  requestedBy: row.requested_by,
  credentialRef: row.credential_ref,
  toolName: row.tool_name,
  definitionHash: row.definition_hash,
  input: row.input ?? undefined,
  runId: row.run_id,
  toolCallId: row.tool_call_id,
  idempotencyKey: row.idempotency_key,
  fingerprint: row.fingerprint,
  callerScopes: row.caller_scopes,
  mode: row.mode,
  status: row.status,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  result: row.result ?? undefined,
  resumedAt: row.resumed_at ?? undefined,
});

/**
 * Opens the consent store in the quoted `schema` (migrated) under the credentials' key; rejects without it or
 * with another.
 */
export async function createPostgresConsentStore(
  pool: pg.Pool,
  schema: string,
  key: Uint8Array | undefined,
): Promise<ConsentStore> {
  const box = sealingBox("consent", key);
  await checkPostgresSealingKey(pool, schema, box, ["consent_requests"]);
  const requests = `${schema}.consent_requests`;
  const calls = `${schema}.parked_calls`;

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
      scopes: row.scopes,
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
  const pendingOf = async (
    queryable: pg.Pool | pg.PoolClient,
    request: { tenantId: string; principalId: string; credentialRef: string; scopes: readonly string[] },
    now: number,
  ): Promise<ConsentRequest | undefined> => {
    const { rows } = await queryable.query<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM ${requests}
       WHERE tenant_id = $1 AND principal_id = $2 AND credential_ref = $3 AND status = 'pending'
         AND expires_at > $4
       ORDER BY created_at`,
      [request.tenantId, request.principalId, request.credentialRef, now],
    );
    return rows.map(toRequest).find((pending) => covers(pending, request.scopes, now));
  };
  const newestCall = async (queryable: pg.Pool | pg.PoolClient, tenantId: string, idempotencyKey: string) => {
    const { rows } = await queryable.query<CallRow>(
      `SELECT ${CALL_COLUMNS} FROM ${calls}
       WHERE tenant_id = $1 AND idempotency_key = $2 AND status <> 'expired'
       ORDER BY created_at DESC LIMIT 1`,
      [tenantId, idempotencyKey],
    );
    return rows[0] && toCall(rows[0]);
  };

  return {
    async open(request) {
      // An unlocked read answers the calls that find a consent to share; only a new one takes the lock.
      const shared = await pendingOf(pool, request, request.createdAt);
      if (shared) return { created: false, request: shared };
      const lock = `toolreg consent ${requests} ${request.tenantId} ${request.principalId} ${request.credentialRef}`;
      return underLock(pool, lock, async (client) => {
        const pending = await pendingOf(client, request, request.createdAt);
        if (pending) return { created: false, request: pending };
        const { rows } = await client.query<RequestRow>(
          `INSERT INTO ${requests} (tenant_id, id, principal_id, credential_ref, provider, scopes, state_hash,
             key_id, sealed, redirect_uri, status, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $12)
           RETURNING ${REQUEST_COLUMNS}`,
          [
            request.tenantId,
            request.id,
            request.principalId,
            request.credentialRef,
            request.provider,
            JSON.stringify(request.scopes),
            request.stateHash,
            box.keyId,
            box.seal(
              JSON.stringify({
                codeVerifier: request.codeVerifier,
                authorizationUrl: request.authorizationUrl,
              }),
              consentBinding(request),
            ),
            request.redirectUri,
            request.createdAt,
            request.expiresAt,
          ],
        );
        return { created: true, request: toRequest(rows[0] as RequestRow) };
      });
    },
    async take({ stateHash, consentIds, now }) {
      // The callback knows only the state, whose hash is unique across tenants; the row lock the UPDATE
      // takes makes a second taker see it used.
      const { rows } = await pool.query<RequestRow>(
        `UPDATE ${requests} SET status = 'used', used_at = $1
         WHERE state_hash = $2 AND status = 'pending' AND expires_at > $1 AND id = ANY($3::text[])
         RETURNING ${REQUEST_COLUMNS}`,
        [now, stateHash, consentIds],
      );
      return rows[0] && toRequest(rows[0]);
    },
    async getRequest({ tenantId, id }) {
      const { rows } = await pool.query<RequestRow>(
        `SELECT ${REQUEST_COLUMNS} FROM ${requests} WHERE tenant_id = $1 AND id = $2`,
        [tenantId, id],
      );
      return rows[0] && toRequest(rows[0]);
    },
    async park(call) {
      const parked = await newestCall(pool, call.tenantId, call.idempotencyKey);
      if (parked) return { created: false, call: parked };
      return underLock(
        pool,
        `toolreg park ${calls} ${call.tenantId} ${call.idempotencyKey}`,
        async (client) => {
          const existing = await newestCall(client, call.tenantId, call.idempotencyKey);
          if (existing) return { created: false, call: existing };
          const { rows } = await client.query<CallRow>(
            `INSERT INTO ${calls} (tenant_id, id, consent_id, requested_by, credential_ref, tool_name,
             definition_hash, input, run_id, tool_call_id, idempotency_key, fingerprint, caller_scopes, mode,
             status, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'waiting', $15, $16)
           RETURNING ${CALL_COLUMNS}`,
            [
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
            ],
          );
          return { created: true, call: toCall(rows[0] as CallRow) };
        },
      );
    },
    async getCall({ tenantId, id }) {
      const { rows } = await pool.query<CallRow>(
        `SELECT ${CALL_COLUMNS} FROM ${calls} WHERE tenant_id = $1 AND id = $2`,
        [tenantId, id],
      );
      return rows[0] && toCall(rows[0]);
    },
    async waiting({ tenantId, principalId, credentialRef }) {
      const { rows } = await pool.query<CallRow>(
        `SELECT ${CALL_COLUMNS} FROM ${calls}
         WHERE tenant_id = $1 AND requested_by = $2 AND credential_ref = $3 AND status = 'waiting'
         ORDER BY created_at, id`,
        [tenantId, principalId, credentialRef],
      );
      return rows.map(toCall);
    },
    async settle({ tenantId, id, result, at }) {
      const { rowCount } = await pool.query(
        `UPDATE ${calls} SET status = 'resumed', result = $1, resumed_at = $2
         WHERE tenant_id = $3 AND id = $4 AND status = 'waiting'`,
        [JSON.stringify(result), at, tenantId, id],
      );
      return rowCount === 1;
    },
    async expire({ now }) {
      // Housekeeping over every tenant, in one statement: both happen, or neither.
      const { rows } = await pool.query<{ changed: number }>(
        `WITH expired AS (
           UPDATE ${calls} SET status = 'expired' WHERE status = 'waiting' AND expires_at <= $1 RETURNING 1
         ), dropped AS (
           DELETE FROM ${requests} WHERE status = 'used' OR expires_at <= $1 RETURNING 1
         )
         SELECT (SELECT count(*) FROM expired) + (SELECT count(*) FROM dropped) AS changed`,
        [now],
      );
      return rows[0]?.changed ?? 0;
    },
  };
}
