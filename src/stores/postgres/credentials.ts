/**
 * @module PostgreSQL credential store: metadata in columns, secrets sealed with AES-256-GCM under the
 * operator's key exactly as the SQLite store seals them. It will not open without the key, nor with a key
 * other than the one its credentials are sealed under. A refresh is compare-and-set on the version.
 */
import type pg from "pg";
import {
  type CredentialKey,
  type CredentialMetadata,
  type CredentialStore,
  checkNewCredential,
} from "../../ports/credential-store.js";
import { type CredentialRow, credentialMetadataOf, jsonValue } from "../sql/rows.js";
import { openCredential, otherKeyQuery, refuseOtherKey, sealCredential, sealingBox } from "../sql/sealing.js";
import type { SecretBox } from "../sql/secret-box.js";

type Row = CredentialRow;
const toMetadata = (row: Row): CredentialMetadata => credentialMetadataOf(row, jsonValue);

const COLUMNS = `tenant_id, principal_id, ref, kind, provider, scopes, account, expires_at, has_refresh, key_id,
  sealed, version, connected_by, created_at, updated_at, revoked_at, revoked_reason`;

/** Refuses a key other than the one `tables` (in the quoted `schema`) hold secrets sealed under. */
export async function checkPostgresSealingKey(
  pool: pg.Pool,
  schema: string,
  box: SecretBox,
  tables: readonly string[],
): Promise<void> {
  for (const table of tables) {
    const { rows } = await pool.query<{ key_id: string }>(otherKeyQuery(`${schema}.${table}`, "$1"), [
      box.keyId,
    ]);
    refuseOtherKey(box, rows[0]?.key_id);
  }
}

/**
 * Opens the credential store in the quoted `schema` (migrated) under `key` (32 bytes); rejects without it or
 * with the wrong one.
 */
export async function createPostgresCredentialStore(
  pool: pg.Pool,
  schema: string,
  key: Uint8Array | undefined,
): Promise<CredentialStore> {
  const box = sealingBox("credential", key);
  await checkPostgresSealingKey(pool, schema, box, ["credentials"]);
  const table = `${schema}.credentials`;
  const principalOf = (key: CredentialKey) => key.principalId ?? "";

  return {
    async put(input) {
      checkNewCredential(input);
      const sealed = sealCredential(box, input, input.secrets);
      const { rows } = await pool.query<Row>(
        `INSERT INTO ${table} AS t (tenant_id, principal_id, ref, kind, provider, scopes, account, expires_at,
           has_refresh, key_id, sealed, version, connected_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, $12, $13, $13)
         ON CONFLICT (tenant_id, ref, principal_id) DO UPDATE SET kind = excluded.kind,
           provider = excluded.provider, scopes = excluded.scopes, account = excluded.account,
           expires_at = excluded.expires_at, has_refresh = excluded.has_refresh, key_id = excluded.key_id,
           sealed = excluded.sealed, version = t.version + 1, connected_by = excluded.connected_by,
           updated_at = excluded.updated_at, revoked_at = NULL, revoked_reason = NULL
         RETURNING ${COLUMNS}`,
        [
          input.tenantId,
          principalOf(input),
          input.ref,
          input.kind,
          input.provider,
          JSON.stringify(input.scopes ?? []),
          input.account ?? null,
          input.expiresAt ?? null,
          sealed.hasRefreshToken,
          sealed.keyId,
          sealed.sealed,
          input.connectedBy,
          input.at,
        ],
      );
      return toMetadata(rows[0] as Row);
    },
    async get(key) {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${table} WHERE tenant_id = $1 AND ref = $2 AND principal_id = $3`,
        [key.tenantId, key.ref, principalOf(key)],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        ...toMetadata(row),
        secrets: openCredential(box, { keyId: row.key_id, sealed: row.sealed }, key),
      };
    },
    async list({ tenantId, principalId, ref }) {
      // principalId: undefined is every principal, null the tenant's own ('').
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${table}
         WHERE tenant_id = $1 AND ($2::text IS NULL OR ref = $2) AND ($3::text IS NULL OR principal_id = $3)
         ORDER BY ref, principal_id`,
        [tenantId, ref ?? null, principalId === undefined ? null : (principalId ?? "")],
      );
      return rows.map(toMetadata);
    },
    async update(input) {
      const sealed = sealCredential(box, input, input.secrets);
      const { rowCount } = await pool.query(
        `UPDATE ${table} SET sealed = $1, key_id = $2, has_refresh = $3, expires_at = $4,
           scopes = COALESCE($5::jsonb, scopes), version = version + 1, updated_at = $6
         WHERE tenant_id = $7 AND ref = $8 AND principal_id = $9 AND version = $10 AND revoked_at IS NULL`,
        [
          sealed.sealed,
          sealed.keyId,
          sealed.hasRefreshToken,
          input.expiresAt ?? null,
          input.scopes ? JSON.stringify(input.scopes) : null,
          input.at,
          input.tenantId,
          input.ref,
          principalOf(input),
          input.version,
        ],
      );
      return rowCount === 1;
    },
    async revoke(input) {
      const { rowCount } = await pool.query(
        `UPDATE ${table} SET sealed = NULL, key_id = NULL, has_refresh = false, version = version + 1,
           updated_at = $1, revoked_at = $1, revoked_reason = $2
         WHERE tenant_id = $3 AND ref = $4 AND principal_id = $5 AND revoked_at IS NULL
           AND ($6::bigint IS NULL OR version = $6)`,
        [input.at, input.reason, input.tenantId, input.ref, principalOf(input), input.version ?? null],
      );
      return rowCount === 1;
    },
  };
}
