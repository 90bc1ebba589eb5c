/**
 * @module SQLite authentication store: API keys, one-time login tokens, console sessions and OAuth grants'
 * clients, codes and refresh tokens in one shared file.
 */
import { timingSafeEqual } from "node:crypto";
import type {
  AuthStore,
  AuthStoreOptions,
  CreateGrantTokenInput,
  GrantTokenKind,
} from "../../ports/auth-store.js";
import { formatApiKey, newApiKeyParts, parseApiKey } from "../auth/api-key.js";
import { checkTtl, LOGIN_TOKEN_TTL_MS, sessionTtlOf } from "../auth/auth-ttl.js";
import { isClientId, newClientId } from "../auth/client-id.js";
import { checkKeyInput } from "../auth/key-input.js";
import { KEY_COLUMNS, type KeyRow, toCaller, toKeyRecord, unexpired } from "../auth/key-row.js";
import { hashSecret, isSecretShaped, randomSecret } from "../auth/secret.js";
import { openAuthDatabase } from "./auth-database.js";

/** Opens (creating the `auth_` tables if needed) the SQLite file at `path` as an authentication store. */
export function openSqliteAuthStore(path: string, options: AuthStoreOptions = {}): AuthStore {
  const clock = options.clock ?? Date.now;
  const sessionTtlMs = sessionTtlOf(options);
  const db = openAuthDatabase(path);

  const insertKey = db.prepare(
    `INSERT INTO auth_keys (${KEY_COLUMNS})
     VALUES (@id, @secretHash, @tenantId, @principalId, @scopes, @mode, @operator, @label, @createdAt, NULL, @validUntil)`,
  );
  const liveKey = db.prepare<[string], KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM auth_keys WHERE id = ? AND revoked_at IS NULL`,
  );
  const allKeys = db.prepare<[], KeyRow>(`SELECT ${KEY_COLUMNS} FROM auth_keys ORDER BY created_at, id`);
  const tenantKeys = db.prepare<[string], KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM auth_keys WHERE tenant_id = ? ORDER BY created_at, id`,
  );
  const anyKey = db.prepare<[], number>("SELECT EXISTS (SELECT 1 FROM auth_keys)").pluck();
  const markRevoked = db.prepare<[number, string]>(
    "UPDATE auth_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
  );
  const deleteSessionsOfKey = db.prepare<[string]>("DELETE FROM auth_sessions WHERE key_id = ?");
  const deleteTokensOfKey = db.prepare<[string]>("DELETE FROM auth_login_tokens WHERE key_id = ?");
  // Through the live key, so a token can never be made for an unknown or revoked one.
  const insertToken = db.prepare<[Buffer, number, string]>(
    `INSERT INTO auth_login_tokens (token_hash, key_id, expires_at)
     SELECT ?, id, ? FROM auth_keys WHERE id = ? AND revoked_at IS NULL`,
  );
  const purgeTokens = db.prepare<[number]>(
    "DELETE FROM auth_login_tokens WHERE used_at IS NOT NULL OR expires_at <= ?",
  );
  // One statement decides the redeem: of two connections racing, only one matches `used_at IS NULL`.
  const useToken = db
    .prepare<[number, Buffer, number], string>(
      `UPDATE auth_login_tokens SET used_at = ?
       WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
         AND key_id IN (SELECT id FROM auth_keys WHERE revoked_at IS NULL)
       RETURNING key_id`,
    )
    .pluck();
  const insertSession = db.prepare<[Buffer, string, string, number]>(
    "INSERT INTO auth_sessions (session_hash, key_id, csrf_token, expires_at) VALUES (?, ?, ?, ?)",
  );
  const purgeSessions = db.prepare<[number]>("DELETE FROM auth_sessions WHERE expires_at <= ?");
  const liveSession = db.prepare<[Buffer, number], KeyRow & { csrf_token: string }>(
    `SELECT k.*, s.csrf_token
     FROM auth_sessions s JOIN auth_keys k ON k.id = s.key_id
     WHERE s.session_hash = ? AND s.expires_at > ? AND k.revoked_at IS NULL`,
  );
  const deleteSession = db.prepare<[Buffer]>("DELETE FROM auth_sessions WHERE session_hash = ?");
  const deleteGrantTokensOfKey = db.prepare<[string]>("DELETE FROM auth_grant_tokens WHERE key_id = ?");
  const renewSecret = db.prepare<[Buffer, number, string]>(
    "UPDATE auth_keys SET secret_hash = ?, valid_until = ? WHERE id = ? AND revoked_at IS NULL",
  );
  const insertGrantToken = db.prepare<[Buffer, string, string, number, string]>(
    `INSERT INTO auth_grant_tokens (token_hash, kind, payload, expires_at, key_id)
     SELECT ?, ?, ?, ?, id FROM auth_keys WHERE id = ? AND revoked_at IS NULL`,
  );
  const purgeGrantTokens = db.prepare<[number]>("DELETE FROM auth_grant_tokens WHERE expires_at <= ?");
  const spentGrantToken = db.prepare<[Buffer, string, number], { key_id: string }>(
    `SELECT key_id FROM auth_grant_tokens
     WHERE token_hash = ? AND kind = ? AND used_at IS NOT NULL AND expires_at > ?
       AND key_id IN (SELECT id FROM auth_keys WHERE revoked_at IS NULL)`,
  );
  // As with login tokens, one statement decides the redeem.
  const useGrantToken = db.prepare<[number, Buffer, string, number], { key_id: string; payload: string }>(
    `UPDATE auth_grant_tokens SET used_at = ?
     WHERE token_hash = ? AND kind = ? AND used_at IS NULL AND expires_at > ?
       AND key_id IN (SELECT id FROM auth_keys WHERE revoked_at IS NULL)
     RETURNING key_id, payload`,
  );
  const insertClient = db.prepare<[string, string, number]>(
    "INSERT INTO auth_oauth_clients (client_id, metadata, created_at) VALUES (?, ?, ?)",
  );
  const markClientUsed = db.prepare<[number, string]>(
    "UPDATE auth_oauth_clients SET used_at = ? WHERE client_id = ? AND used_at IS NULL",
  );
  const deleteUnusedClients = db.prepare<[number]>(
    "DELETE FROM auth_oauth_clients WHERE used_at IS NULL AND created_at < ?",
  );
  const countUnusedClients = db.prepare<[], { unused: number }>(
    "SELECT count(*) AS unused FROM auth_oauth_clients WHERE used_at IS NULL",
  );
  const pruneClients = db.transaction((registeredBefore: number): number => {
    deleteUnusedClients.run(registeredBefore);
    return countUnusedClients.get()!.unused;
  });
  const clientById = db.prepare<[string], { client_id: string; metadata: string; created_at: number }>(
    "SELECT client_id, metadata, created_at FROM auth_oauth_clients WHERE client_id = ?",
  );

  const revoke = db.transaction((id: string): boolean => {
    if (markRevoked.run(clock(), id).changes === 0) return false;
    deleteSessionsOfKey.run(id);
    deleteTokensOfKey.run(id);
    deleteGrantTokensOfKey.run(id);
    return true;
  });

  const issueGrantToken = db.transaction((input: CreateGrantTokenInput): string => {
    const now = clock();
    purgeGrantTokens.run(now);
    const token = randomSecret();
    const made = insertGrantToken.run(
      hashSecret(token),
      input.kind,
      input.payload,
      now + input.ttlMs,
      input.keyId,
    );
    if (made.changes === 0)
      throw new Error(`auth store: no live API key ${JSON.stringify(input.keyId)} to grant for`);
    return token;
  });

  const redeemGrant = db.transaction((kind: GrantTokenKind, token: string) => {
    const now = clock();
    const used = useGrantToken.get(now, hashSecret(token), kind, now);
    // The update matched a key not revoked inside this transaction, so the key is there.
    return used && { caller: toCaller(liveKey.get(used.key_id)!), payload: used.payload };
  });

  const issueToken = db.transaction((keyId: string, ttlMs: number): string => {
    const now = clock();
    purgeTokens.run(now);
    const token = randomSecret();
    if (insertToken.run(hashSecret(token), now + ttlMs, keyId).changes === 0)
      throw new Error(`auth store: no live API key ${JSON.stringify(keyId)} to log in with`);
    return token;
  });

  const redeem = db.transaction((token: string) => {
    const now = clock();
    const keyId = useToken.get(now, hashSecret(token), now);
    if (keyId === undefined) return undefined;
    purgeSessions.run(now);
    const sessionId = randomSecret();
    const csrfToken = randomSecret();
    insertSession.run(hashSecret(sessionId), keyId, csrfToken, now + sessionTtlMs);
    // The update above matched a live key inside this transaction, so the key is there.
    return { sessionId, csrfToken, caller: toCaller(liveKey.get(keyId)!) };
  });

  // better-sqlite3 answers synchronously; the port is asynchronous so that a shared server can stand behind it.
  return {
    async createKey(input) {
      const checked = checkKeyInput(input);
      const parts = newApiKeyParts();
      const createdAt = clock();
      insertKey.run({
        ...checked,
        id: parts.id,
        secretHash: hashSecret(parts.secret),
        scopes: JSON.stringify(checked.scopes),
        operator: checked.operator ? 1 : 0,
        label: checked.label ?? null,
        createdAt,
        validUntil: checked.expiresAt ?? null,
      });
      return {
        key: formatApiKey(parts),
        record: { id: parts.id, ...checked, createdAt, revokedAt: undefined },
      };
    },

    async verifyKey(key) {
      const parts = parseApiKey(key);
      if (!parts) return undefined;
      const row = liveKey.get(parts.id);
      if (!row) return undefined;
      const matches = timingSafeEqual(row.secret_hash, hashSecret(parts.secret));
      return matches && unexpired(row, clock()) ? toCaller(row) : undefined;
    },

    async listKeys(filter = {}) {
      const rows = filter.tenantId === undefined ? allKeys.all() : tenantKeys.all(filter.tenantId);
      return rows.map(toKeyRecord);
    },

    revokeKey: async (id) => revoke.immediate(id),

    hasKeys: async () => anyKey.get() === 1,

    createLoginToken: async (keyId, ttlMs = LOGIN_TOKEN_TTL_MS) =>
      issueToken.immediate(keyId, checkTtl("ttlMs", ttlMs)),

    redeemLoginToken: async (token) => (isSecretShaped(token) ? redeem.immediate(token) : undefined),

    async session(sessionId) {
      if (!isSecretShaped(sessionId)) return undefined;
      const row = liveSession.get(hashSecret(sessionId), clock());
      return row && { caller: toCaller(row), csrfToken: row.csrf_token };
    },

    async endSession(sessionId) {
      if (isSecretShaped(sessionId)) deleteSession.run(hashSecret(sessionId));
    },

    async renewKey(id, expiresAt) {
      const secret = randomSecret();
      if (renewSecret.run(hashSecret(secret), expiresAt, id).changes === 0) return undefined;
      return formatApiKey({ id, secret });
    },

    async createGrantToken(input) {
      checkTtl("ttlMs", input.ttlMs);
      return issueGrantToken.immediate(input);
    },

    redeemGrantToken: async (kind, token) =>
      isSecretShaped(token) ? redeemGrant.immediate(kind, token) : undefined,

    spentGrantToken: async (kind, token) =>
      isSecretShaped(token) ? spentGrantToken.get(hashSecret(token), kind, clock())?.key_id : undefined,

    async registerClient(metadata) {
      const record = { clientId: newClientId(), metadata, createdAt: clock() };
      insertClient.run(record.clientId, record.metadata, record.createdAt);
      return record;
    },

    async client(clientId) {
      const row = isClientId(clientId) ? clientById.get(clientId) : undefined;
      return row && { clientId: row.client_id, metadata: row.metadata, createdAt: row.created_at };
    },

    async markClientUsed(clientId) {
      if (isClientId(clientId)) markClientUsed.run(clock(), clientId);
    },

    pruneUnusedClients: async (registeredBefore) => pruneClients.immediate(registeredBefore),

    close: async () => {
      db.close();
    },
  };
}
