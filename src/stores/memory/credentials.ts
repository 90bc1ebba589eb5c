/** @module In-memory credential store: the reference adapter. Nothing is at rest, so nothing is encrypted. */
import {
  type CredentialKey,
  type CredentialStore,
  checkNewCredential,
  metadataOf,
  type StoredCredential,
} from "../../ports/credential-store.js";

// A principal id is never empty, so "" marks the tenant's own credential without colliding with one.
const keyOf = ({ tenantId, principalId, ref }: CredentialKey) =>
  `${tenantId}\u0000${principalId ?? ""}\u0000${ref}`;

export function createMemoryCredentialStore(): CredentialStore {
  const credentials = new Map<string, StoredCredential>();
  return {
    async put(input) {
      checkNewCredential(input);
      const key = keyOf(input);
      const previous = credentials.get(key);
      const stored: StoredCredential = {
        tenantId: input.tenantId,
        principalId: input.principalId,
        ref: input.ref,
        kind: input.kind,
        provider: input.provider,
        scopes: [...(input.scopes ?? [])],
        account: input.account,
        expiresAt: input.expiresAt,
        hasRefreshToken: input.secrets.refreshToken !== undefined,
        version: (previous?.version ?? 0) + 1,
        connectedBy: input.connectedBy,
        createdAt: previous?.createdAt ?? input.at,
        updatedAt: input.at,
        revokedAt: undefined,
        revokedReason: undefined,
        secrets: { ...input.secrets },
      };
      credentials.set(key, stored);
      return metadataOf(stored);
    },
    async get(key) {
      const stored = credentials.get(keyOf(key));
      return stored && structuredClone(stored);
    },
    async list({ tenantId, principalId, ref }) {
      return [...credentials.values()]
        .filter(
          (credential) =>
            credential.tenantId === tenantId &&
            (ref === undefined || credential.ref === ref) &&
            (principalId === undefined || credential.principalId === (principalId ?? undefined)),
        )
        .sort(
          (a, b) => a.ref.localeCompare(b.ref) || (a.principalId ?? "").localeCompare(b.principalId ?? ""),
        )
        .map(metadataOf);
    },
    async update(update) {
      const key = keyOf(update);
      const stored = credentials.get(key);
      if (!stored || stored.revokedAt !== undefined || stored.version !== update.version) return false;
      credentials.set(key, {
        ...stored,
        secrets: { ...update.secrets },
        hasRefreshToken: update.secrets.refreshToken !== undefined,
        expiresAt: update.expiresAt,
        scopes: update.scopes ? [...update.scopes] : stored.scopes,
        version: stored.version + 1,
        updatedAt: update.at,
      });
      return true;
    },
    async revoke(input) {
      const key = keyOf(input);
      const stored = credentials.get(key);
      if (!stored || stored.revokedAt !== undefined) return false;
      if (input.version !== undefined && stored.version !== input.version) return false;
      credentials.set(key, {
        ...stored,
        secrets: undefined,
        hasRefreshToken: false,
        version: stored.version + 1,
        updatedAt: input.at,
        revokedAt: input.at,
        revokedReason: input.reason,
      });
      return true;
    },
  };
}
