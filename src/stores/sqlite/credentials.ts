/**
 * @module SQLite credential store: metadata in columns, secrets sealed with AES-256-GCM under the operator's
 * key. It will not open without the key, nor with a key other than the one its credentials were sealed under.
 */
import type Database from "better-sqlite3";
import {
  type CredentialKey,
  type CredentialMetadata,
  type CredentialSecrets,
  type CredentialStore,
  checkNewCredential,
} from "../../ports/credential-store.js";
import { type CredentialRow, credentialMetadataOf, jsonText } from "../sql/rows.js";
import { openCredential, otherKeyQuery, refuseOtherKey, sealCredential, sealingBox } from "../sql/sealing.js";
import type { SecretBox } from "../sql/secret-box.js";

type Row = CredentialRow;
const toMetadata = (row: Row): CredentialMetadata => credentialMetadataOf(row, jsonText);

/** Refuses a key other than the one the file's secrets are sealed under, naming both ids, never a key. */
export function checkSealingKey(db: Database.Database, box: SecretBox, tables: readonly string[]): void {
  for (const table of tables) {
    refuseOtherKey(
      box,
      db.prepare<[string], { key_id: string }>(otherKeyQuery(table, "?")).get(box.keyId)?.key_id,
    );
  }
}

/** Opens the credential store on `db` under `key` (32 bytes); throws without it or with the wrong one. */
export function createSqliteCredentialStore(
  db: Database.Database,
  key: Uint8Array | undefined,
): CredentialStore {
  const box = sealingBox("credential", key);
  checkSealingKey(db, box, ["credentials"]);
  const get = db.prepare<[string, string, string], Row>(
    "SELECT * FROM credentials WHERE tenant_id = ? AND principal_id = ? AND ref = ?",
  );
  const list = db.prepare<[string], Row>(
    "SELECT * FROM credentials WHERE tenant_id = ? ORDER BY ref, principal_id",
  );
  const upsert = db.prepare(
    `INSERT INTO credentials (tenant_id, principal_id, ref, kind, provider, scopes, account, expires_at,
       has_refresh, key_id, sealed, version, connected_by, created_at, updated_at, revoked_at, revoked_reason)
     VALUES (@tenant_id, @principal_id, @ref, @kind, @provider, @scopes, @account, @expires_at, @has_refresh,
       @key_id, @sealed, 1, @connected_by, @at, @at, NULL, NULL)
     ON CONFLICT (tenant_id, principal_id, ref) DO UPDATE SET kind = excluded.kind,
       provider = excluded.provider, scopes = excluded.scopes, account = excluded.account,
       expires_at = excluded.expires_at, has_refresh = excluded.has_refresh, key_id = excluded.key_id,
       sealed = excluded.sealed, version = credentials.version + 1, connected_by = excluded.connected_by,
       updated_at = excluded.updated_at, revoked_at = NULL, revoked_reason = NULL`,
  );
  const update = db.prepare(
    `UPDATE credentials SET sealed = @sealed, key_id = @key_id, has_refresh = @has_refresh,
       expires_at = @expires_at, scopes = COALESCE(@scopes, scopes), version = version + 1, updated_at = @at
     WHERE tenant_id = @tenant_id AND principal_id = @principal_id AND ref = @ref AND version = @version
       AND revoked_at IS NULL`,
  );
  const revoke = db.prepare(
    `UPDATE credentials SET sealed = NULL, key_id = NULL, has_refresh = 0, version = version + 1,
       updated_at = @at, revoked_at = @at, revoked_reason = @reason
     WHERE tenant_id = @tenant_id AND principal_id = @principal_id AND ref = @ref AND revoked_at IS NULL
       AND (@version IS NULL OR version = @version)`,
  );

  const seal = (key: CredentialKey, secrets: CredentialSecrets) => {
    const { keyId, sealed, hasRefreshToken } = sealCredential(box, key, secrets);
    return { key_id: keyId, sealed, has_refresh: hasRefreshToken ? 1 : 0 };
  };
  const unseal = (row: Row, key: CredentialKey) =>
    openCredential(box, { keyId: row.key_id, sealed: row.sealed }, key);

  return {
    async put(input) {
      checkNewCredential(input);
      const principal = input.principalId ?? "";
      upsert.run({
        tenant_id: input.tenantId,
        principal_id: principal,
        ref: input.ref,
        kind: input.kind,
        provider: input.provider,
        scopes: JSON.stringify(input.scopes ?? []),
        account: input.account ?? null,
        expires_at: input.expiresAt ?? null,
        connected_by: input.connectedBy,
        at: input.at,
        ...seal(input, input.secrets),
      });
      return toMetadata(get.get(input.tenantId, principal, input.ref) as Row);
    },
    async get(key) {
      const row = get.get(key.tenantId, key.principalId ?? "", key.ref);
      if (!row) return undefined;
      return { ...toMetadata(row), secrets: unseal(row, key) };
    },
    async list({ tenantId, principalId, ref }) {
      return list
        .all(tenantId)
        .filter(
          (row) =>
            (ref === undefined || row.ref === ref) &&
            (principalId === undefined || row.principal_id === (principalId ?? "")),
        )
        .map(toMetadata);
    },
    async update(input) {
      const changed = update.run({
        tenant_id: input.tenantId,
        principal_id: input.principalId ?? "",
        ref: input.ref,
        version: input.version,
        expires_at: input.expiresAt ?? null,
        scopes: input.scopes ? JSON.stringify(input.scopes) : null,
        at: input.at,
        ...seal(input, input.secrets),
      });
      return changed.changes === 1;
    },
    async revoke(input) {
      const { at, reason, tenantId, principalId, ref, version } = input;
      const revoked = revoke.run({
        at,
        reason,
        tenant_id: tenantId,
        principal_id: principalId ?? "",
        ref,
        version: version ?? null,
      });
      return revoked.changes === 1;
    },
  };
}
