/**
 * @module PostgreSQL consent store: pending consents (their PKCE verifier and authorization URL sealed under
 * the operator's key, as the SQLite store seals them) and parked calls. Opening a consent and parking a call
 * each find-or-create under an advisory lock on their key; taking a state is one UPDATE, so of instances
 * racing for one state exactly one gets it.
 */
import type pg from "pg";
import { type ConsentRequest, type ConsentStore, covers } from "../../ports/consent-store.js";
import {
  CONSENT_REQUEST_COLUMNS,
  type ConsentRequestRow,
  consentRequestOf,
  NEW_CONSENT_COLUMNS,
  NEW_PARKED_CALL_COLUMNS,
  newConsentParams,
  newParkedCallParams,
  PARKED_CALL_COLUMNS,
  type ParkedCallRow,
  parkedCallOf,
} from "../sql/consent-rows.js";
import { jsonValue } from "../sql/rows.js";
import { sealingBox } from "../sql/sealing.js";
import { checkPostgresSealingKey } from "./credentials.js";
import { underLock } from "./under-lock.js";

const toCall = parkedCallOf(jsonValue);

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

  const toRequest = consentRequestOf(box, jsonValue);
  const pendingOf = async (
    queryable: pg.Pool | pg.PoolClient,
    request: { tenantId: string; principalId: string; credentialRef: string; scopes: readonly string[] },
    now: number,
  ): Promise<ConsentRequest | undefined> => {
    const { rows } = await queryable.query<ConsentRequestRow>(
      `SELECT ${CONSENT_REQUEST_COLUMNS} FROM ${requests}
       WHERE tenant_id = $1 AND principal_id = $2 AND credential_ref = $3 AND status = 'pending'
         AND expires_at > $4
       ORDER BY created_at`,
      [request.tenantId, request.principalId, request.credentialRef, now],
    );
    return rows.map(toRequest).find((pending) => covers(pending, request.scopes, now));
  };
  const newestCall = async (queryable: pg.Pool | pg.PoolClient, tenantId: string, idempotencyKey: string) => {
    const { rows } = await queryable.query<ParkedCallRow>(
      `SELECT ${PARKED_CALL_COLUMNS} FROM ${calls}
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
        const { rows } = await client.query<ConsentRequestRow>(
          `INSERT INTO ${requests} (${NEW_CONSENT_COLUMNS}, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'pending')
           RETURNING ${CONSENT_REQUEST_COLUMNS}`,
          newConsentParams(box, request),
        );
        return { created: true, request: toRequest(rows[0] as ConsentRequestRow) };
      });
    },
    async take({ stateHash, consentIds, now }) {
      // The callback knows only the state, whose hash is unique across tenants; the row lock the UPDATE
      // takes makes a second taker see it used.
      const { rows } = await pool.query<ConsentRequestRow>(
        `UPDATE ${requests} SET status = 'used', used_at = $1
         WHERE state_hash = $2 AND status = 'pending' AND expires_at > $1 AND id = ANY($3::text[])
         RETURNING ${CONSENT_REQUEST_COLUMNS}`,
        [now, stateHash, consentIds],
      );
      return rows[0] && toRequest(rows[0]);
    },
    async getRequest({ tenantId, id }) {
      const { rows } = await pool.query<ConsentRequestRow>(
        `SELECT ${CONSENT_REQUEST_COLUMNS} FROM ${requests} WHERE tenant_id = $1 AND id = $2`,
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
          const { rows } = await client.query<ParkedCallRow>(
            `INSERT INTO ${calls} (${NEW_PARKED_CALL_COLUMNS}, status)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, 'waiting')
             RETURNING ${PARKED_CALL_COLUMNS}`,
            newParkedCallParams(call),
          );
          return { created: true, call: toCall(rows[0] as ParkedCallRow) };
        },
      );
    },
    async getCall({ tenantId, id }) {
      const { rows } = await pool.query<ParkedCallRow>(
        `SELECT ${PARKED_CALL_COLUMNS} FROM ${calls} WHERE tenant_id = $1 AND id = $2`,
        [tenantId, id],
      );
      return rows[0] && toCall(rows[0]);
    },
    async waiting({ tenantId, principalId, credentialRef }) {
      const { rows } = await pool.query<ParkedCallRow>(
        `SELECT ${PARKED_CALL_COLUMNS} FROM ${calls}
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
