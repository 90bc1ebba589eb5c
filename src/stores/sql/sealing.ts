/**
 * @module What the SQL stores that seal secrets (credentials, consents; SQLite and PostgreSQL) share: the box
 * under the operator's key, the row each sealed value is bound to, and the refusal of a key other than the
 * one a store's secrets are sealed under. Sealing alike, the backends keep values either could open.
 */
import type { CredentialKey, CredentialSecrets } from "../../ports/credential-store.js";
import { createSecretBox, type SecretBox, SecretBoxError } from "./secret-box.js";

const KEY_MISSING = {
  credential:
    "the credential store needs the operator's encryption key to open (toolreg serve --credentials-key-file, or TOOLREG_CREDENTIALS_KEY)",
  consent: "the consent store needs the operator's encryption key to open, as the credential store does",
} as const;

/** The box for `store` under `key` (32 bytes); throws, saying where the key comes from, without one. */
export function sealingBox(store: keyof typeof KEY_MISSING, key: Uint8Array | undefined): SecretBox {
  if (key === undefined) throw new TypeError(KEY_MISSING[store]);
  return createSecretBox(key);
}

/** The statement finding a value in `table` sealed under a key other than the one in `parameter`. */
export const otherKeyQuery = (table: string, parameter: string): string =>
  `SELECT key_id FROM ${table} WHERE key_id IS NOT NULL AND key_id <> ${parameter} LIMIT 1`;

/** Refuses the box's key when `found` (what `otherKeyQuery` found) is another; names both ids, never a key. */
export function refuseOtherKey(box: SecretBox, found: string | undefined): void {
  if (found === undefined) return;
  throw new SecretBoxError(
    `the credentials key given (id ${box.keyId}) is not the one this store's secrets are sealed under (id ${found}); start with that key`,
  );
}

/** The row a credential's sealed secrets belong to: what their authentication tag binds them to. */
export const credentialBinding = ({ tenantId, principalId, ref }: CredentialKey): string =>
  JSON.stringify(["credential", tenantId, principalId ?? "", ref]);

/** The row a consent's sealed verifier and URL belong to. */
export const consentBinding = ({ tenantId, id }: { tenantId: string; id: string }): string =>
  JSON.stringify(["consent", tenantId, id]);

/** A credential's secrets as a row keeps them: sealed, with the key's id beside them. */
export const sealCredential = (box: SecretBox, key: CredentialKey, secrets: CredentialSecrets) => ({
  keyId: box.keyId,
  sealed: box.seal(JSON.stringify(secrets), credentialBinding(key)),
  hasRefreshToken: secrets.refreshToken !== undefined,
});

/** Opens a credential row's secrets (none once revoked), naming the key they are sealed under if another. */
export function openCredential(
  box: SecretBox,
  row: { keyId: string | null; sealed: string | null },
  key: CredentialKey,
): CredentialSecrets | undefined {
  if (row.sealed === null) return undefined;
  if (row.keyId !== box.keyId) {
    throw new SecretBoxError(
      `the credential ${key.ref} is sealed under another key (id ${row.keyId}, not ${box.keyId})`,
    );
  }
  return JSON.parse(box.open(row.sealed, credentialBinding(key))) as CredentialSecrets;
}
