/**
 * @module PostgreSQL authentication store: API keys, one-time login tokens, console sessions and OAuth
 * grants' clients, codes and refresh tokens that every instance sharing the database sees at once. Only hashes of secrets are stored, as in the SQLite store.
 */
import { timingSafeEqual } from "node:crypto";
import type pg from "pg";
import type { AuthStore, AuthStoreOptions } from "../../ports/auth-store.js";
import { IDENTIFIER } from "../../seam/context.js";
import { formatApiKey, isKeyId, newApiKeyParts, parseApiKey } from "../auth/api-key.js";
import { checkTtl, LOGIN_TOKEN_TTL_MS, sessionTtlOf } from "../auth/auth-ttl.js";
import { isClientId, newClientId } from "../auth/client-id.js";
import { checkKeyInput } from "../auth/key-input.js";
import { KEY_COLUMNS, type KeyRow, toCaller, toKeyRecord, unexpired } from "../auth/key-row.js";
import { hashSecret, isSecretShaped, randomSecret } from "../auth/secret.js";
import { inTransaction } from "./transaction.js";

/**
 * The auth store on the `auth_` tables in the quoted `schema` (migrated). The pool stays the caller's: closing
 * the store does not end it.
 *
 * Locking, so that revocation ends everything on every instance: redeeming a token and making one take a
 * share lock on the key row, and revoking takes the row's update lock before deleting the key's tokens and
 * sessions, so each waits for the other and sees what it committed.
 */
export function createPostgresAuthStore(pool: pg.Pool, schema: string, options: AuthStoreOptions): AuthStore {
  const clock = options.clock ?? Date.now;
  const sessionTtlMs = sessionTtlOf(options);
  const keys = `${schema}.auth_keys`;
  const tokens = `${schema}.auth_login_tokens`;
  const sessions = `${schema}.auth_sessions`;
  const grantTokens = `${schema}.auth_grant_tokens`;
  const clients = `${schema}.auth_oauth_clients`;

  const liveKey = async (id: string) => {
    const { rows } = await pool.query<KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM ${keys} WHERE id = $1 AND revoked_at IS NULL`,
      [id],
    );
    return rows[0];
  };
  // SKIP LOCKED: a purge never waits on a row another transaction holds (that one is deleting it, or the
  // next purge will), so it cannot take part in a deadlock. Its own statement, so it holds nothing after.
  const purge = (table: string, hashColumn: string, expired: string, now: number) =>
    pool.query(
      `DELETE FROM ${table} WHERE ${hashColumn} IN
         (SELECT ${hashColumn} FROM ${table} WHERE ${expired} FOR UPDATE SKIP LOCKED)`,
      [now],
    );
  const noLiveKey = (keyId: unknown) =>
    new Error(`auth store: no live API key ${JSON.stringify(keyId)} to log in with`);

  return {
    async createKey(input) {
      const checked = checkKeyInput(input);
      const parts = newApiKeyParts();
      const createdAt = clock();
      await pool.query(
        `INSERT INTO ${keys} (${KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL, $10)`,
        [
          parts.id,
          hashSecret(parts.secret),
          checked.tenantId,
          checked.principalId,
          JSON.stringify(checked.scopes),
          checked.mode,
          checked.operator,
          checked.label ?? null,
          createdAt,
          checked.expiresAt ?? null,
        ],
      );
      return {
        key: formatApiKey(parts),
        record: { id: parts.id, ...checked, createdAt, revokedAt: undefined },
      };
    },
    async verifyKey(key) {
      const parts = parseApiKey(key);
      if (!parts) return undefined;
      const row = await liveKey(parts.id);
      if (!row) return undefined;
      const matches = timingSafeEqual(row.secret_hash, hashSecret(parts.secret));
      return matches && unexpired(row, clock()) ? toCaller(row) : undefined;
    },
    async listKeys(filter = {}) {
      const { tenantId } = filter;
      if (tenantId !== undefined && (typeof tenantId !== "string" || !IDENTIFIER.test(tenantId))) return [];
      const { rows } = await pool.query<KeyRow>(
        `SELECT ${KEY_COLUMNS} FROM ${keys} WHERE $1::text IS NULL OR tenant_id = $1 ORDER BY created_at, id`,
        [tenantId ?? null],
      );
      return rows.map(toKeyRecord);
    },
    async revokeKey(id) {
      if (!isKeyId(id)) return false;
      return inTransaction(pool, async (client) => {
        const marked = await client.query(
          `UPDATE ${keys} SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`,
          [clock(), id],
        );
        if (marked.rowCount === 0) return false;
        // Statements after the key's lock was taken: they see the tokens and sessions of any redeem or
        // token that held the key before, and no later one can be made.
        await client.query(`DELETE FROM ${sessions} WHERE key_id = $1`, [id]);
        await client.query(`DELETE FROM ${tokens} WHERE key_id = $1`, [id]);
        await client.query(`DELETE FROM ${grantTokens} WHERE key_id = $1`, [id]);
        return true;
      });
    },
    async hasKeys() {
      const { rows } = await pool.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${keys}) AS any`);
      return rows[0]?.any === true;
    },
    async createLoginToken(keyId, ttlMs = LOGIN_TOKEN_TTL_MS) {
      checkTtl("ttlMs", ttlMs);
      if (!isKeyId(keyId)) throw noLiveKey(keyId);
      const now = clock();
      await purge(tokens, "token_hash", "used_at IS NOT NULL OR expires_at <= $1", now);
      const token = randomSecret();
      // Through the live key, share-locked, so a token is never made for an unknown key or one being revoked.
      const inserted = await pool.query(
        `INSERT INTO ${tokens} (token_hash, key_id, expires_at)
         SELECT $1, id, $2 FROM ${keys} WHERE id = $3 AND revoked_at IS NULL FOR SHARE`,
        [hashSecret(token), now + ttlMs, keyId],
      );
      if (inserted.rowCount === 0) throw noLiveKey(keyId);
      return token;
    },
    async redeemLoginToken(token) {
      if (!isSecretShaped(token)) return undefined;
      const now = clock();
      const sessionId = randomSecret();
      const csrfToken = randomSecret();
      // One statement, so one transaction: the UPDATE decides the redeem (of racing instances only one finds
      // `used_at IS NULL`), and the session is inserted with it or not at all.
      const { rows } = await pool.query<KeyRow>(
        `WITH used AS (
           UPDATE ${tokens} t SET used_at = $1
           WHERE t.token_hash = $2 AND t.used_at IS NULL AND t.expires_at > $1
             AND EXISTS (SELECT 1 FROM ${keys} k WHERE k.id = t.key_id AND k.revoked_at IS NULL FOR SHARE)
           RETURNING t.key_id
         ), opened AS (
           INSERT INTO ${sessions} (session_hash, key_id, csrf_token, expires_at)
           SELECT $3, key_id, $4, $5 FROM used
         )
         SELECT ${KEY_COLUMNS} FROM ${keys} JOIN used ON id = used.key_id`,
        [now, hashSecret(token), hashSecret(sessionId), csrfToken, now + sessionTtlMs],
      );
      const row = rows[0];
      if (!row) return undefined;
      await purge(sessions, "session_hash", "expires_at <= $1", now);
      return { sessionId, csrfToken, caller: toCaller(row) };
    },
    async session(sessionId) {
      if (!isSecretShaped(sessionId)) return undefined;
      const { rows } = await pool.query<KeyRow & { csrf_token: string }>(
        `SELECT ${KEY_COLUMNS}, s.csrf_token
         FROM ${sessions} s JOIN ${keys} k ON k.id = s.key_id
         WHERE s.session_hash = $1 AND s.expires_at > $2 AND k.revoked_at IS NULL`,
        [hashSecret(sessionId), clock()],
      );
      const row = rows[0];
      return row && { caller: toCaller(row), csrfToken: row.csrf_token };
    },
    async endSession(sessionId) {
      if (isSecretShaped(sessionId))
        await pool.query(`DELETE FROM ${sessions} WHERE session_hash = $1`, [hashSecret(sessionId)]);
    },
    async renewKey(id, expiresAt) {
      if (!isKeyId(id)) return undefined;
      const secret = randomSecret();
      const renewed = await pool.query(
        `UPDATE ${keys} SET secret_hash = $1, valid_until = $2 WHERE id = $3 AND revoked_at IS NULL`,
        [hashSecret(secret), expiresAt, id],
      );
      return renewed.rowCount === 0 ? undefined : formatApiKey({ id, secret });
    },
    async createGrantToken({ kind, keyId, payload, ttlMs }) {
      checkTtl("ttlMs", ttlMs);
      const noKey = new Error(`auth store: no live API key ${JSON.stringify(keyId)} to grant for`);
      if (!isKeyId(keyId)) throw noKey;
      const now = clock();
      await purge(grantTokens, "token_hash", "expires_at <= $1", now);
      const token = randomSecret();
      // Share-locked through the live key, as a login token is.
      const inserted = await pool.query(
        `INSERT INTO ${grantTokens} (token_hash, kind, payload, expires_at, key_id)
         SELECT $1, $2, $3, $4, id FROM ${keys} WHERE id = $5 AND revoked_at IS NULL FOR SHARE`,
        [hashSecret(token), kind, payload, now + ttlMs, keyId],
      );
      if (inserted.rowCount === 0) throw noKey;
      return token;
    },
    async redeemGrantToken(kind, token) {
      if (!isSecretShaped(token)) return undefined;
      const now = clock();
      // One statement: of racing instances only one finds `used_at IS NULL`.
      const { rows } = await pool.query<KeyRow & { payload: string }>(
        `WITH used AS (
           UPDATE ${grantTokens} t SET used_at = $1
           WHERE t.token_hash = $2 AND t.kind = $3 AND t.used_at IS NULL AND t.expires_at > $1
             AND EXISTS (SELECT 1 FROM ${keys} k WHERE k.id = t.key_id AND k.revoked_at IS NULL FOR SHARE)
           RETURNING t.key_id, t.payload
         )
         SELECT ${KEY_COLUMNS}, used.payload FROM ${keys} JOIN used ON id = used.key_id`,
        [now, hashSecret(token), kind],
      );
      const row = rows[0];
      return row && { caller: toCaller(row), payload: row.payload };
    },
    async spentGrantToken(kind, token) {
      if (!isSecretShaped(token)) return undefined;
      const { rows } = await pool.query<{ key_id: string }>(
        `SELECT t.key_id FROM ${grantTokens} t JOIN ${keys} k ON k.id = t.key_id
         WHERE t.token_hash = $1 AND t.kind = $2 AND t.used_at IS NOT NULL AND t.expires_at > $3
           AND k.revoked_at IS NULL`,
        [hashSecret(token), kind, clock()],
      );
      return rows[0]?.key_id;
    },
    async registerClient(metadata) {
      const record = { clientId: newClientId(), metadata, createdAt: clock() };
      await pool.query(`INSERT INTO ${clients} (client_id, metadata, created_at) VALUES ($1, $2, $3)`, [
        record.clientId,
        record.metadata,
        record.createdAt,
      ]);
      return record;
    },
    async client(clientId) {
      if (!isClientId(clientId)) return undefined;
      const { rows } = await pool.query<{ client_id: string; metadata: string; created_at: number }>(
        `SELECT client_id, metadata, created_at FROM ${clients} WHERE client_id = $1`,
        [clientId],
      );
      const row = rows[0];
      return row && { clientId: row.client_id, metadata: row.metadata, createdAt: row.created_at };
    },
    async markClientUsed(clientId) {
      if (!isClientId(clientId)) return;
      await pool.query(`UPDATE ${clients} SET used_at = $1 WHERE client_id = $2 AND used_at IS NULL`, [
        clock(),
        clientId,
      ]);
    },
    async pruneUnusedClients(registeredBefore) {
      await pool.query(`DELETE FROM ${clients} WHERE used_at IS NULL AND created_at < $1`, [
        registeredBefore,
      ]);
      const { rows } = await pool.query<{ unused: string }>(
        `SELECT count(*) AS unused FROM ${clients} WHERE used_at IS NULL`,
      );
      return Number(rows[0]?.unused ?? 0);
    },
    async close() {},
  };
}
