/**
 * @module The port for credentials toolreg keeps: a vendor token a tenant (or one of its principals) connected,
 * found by its `credentialRef`. Secrets leave the store only through `get`, for the resolver that injects
 * them; every listing is metadata.
 */
import type { TenantKey } from "./stores.js";

export const CREDENTIAL_KINDS = ["token", "oauth"] as const;
/** A token typed in (a personal access token, an API key), or an OAuth connection a user consented to. */
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** The secret part: never logged, never audited, never listed. */
export interface CredentialSecrets {
  accessToken: string;
  /** OAuth only: what gets a new access token once this one expires. */
  refreshToken?: string | undefined;
}

/** Which credential: a principal's own (delegated by that user) or, with no principal, the tenant's. */
export interface CredentialKey extends TenantKey {
  /** Undefined for the tenant's own credential, which every principal of the tenant uses. */
  principalId?: string | undefined;
  ref: string;
}

/** What may be shown of a credential: everything but its secrets. */
export interface CredentialMetadata {
  tenantId: string;
  principalId: string | undefined;
  ref: string;
  kind: CredentialKind;
  /** The vendor it is for (a toolkit id, `github`), so a consent or a refresh knows whom to ask. */
  provider: string;
  /** The scopes the vendor granted (OAuth), as it reported them. */
  scopes: readonly string[];
  /** The vendor-side identity, when known: an account login, or an OAuth app's client id. Not secret. */
  account: string | undefined;
  /** When the access token expires (epoch ms); undefined when the vendor did not say. */
  expiresAt: number | undefined;
  hasRefreshToken: boolean;
  /** Bumped by every write: a refresh stores its tokens only over the version it read. */
  version: number;
  /** Who stored it: the consenting user, or the operator who typed it in. */
  connectedBy: string;
  createdAt: number;
  updatedAt: number;
  /** Set once revoked (by a person, or because the vendor refused it); its secrets are erased then. */
  revokedAt: number | undefined;
  revokedReason: string | undefined;
}

/** A credential with its secrets, as only `get` returns it; a revoked one has none. */
export interface StoredCredential extends CredentialMetadata {
  secrets: CredentialSecrets | undefined;
}

export interface NewCredential extends CredentialKey {
  kind: CredentialKind;
  provider: string;
  scopes?: readonly string[];
  account?: string | undefined;
  expiresAt?: number | undefined;
  secrets: CredentialSecrets;
  connectedBy: string;
  at: number;
}

/** New tokens for a credential, stored only if it is still at `version` (a refresh elsewhere may have won). */
export interface CredentialUpdate extends CredentialKey {
  version: number;
  secrets: CredentialSecrets;
  expiresAt: number | undefined;
  /** Replaces the granted scopes when the vendor reported them anew. */
  scopes?: readonly string[];
  at: number;
}

export interface CredentialRevocation extends CredentialKey {
  at: number;
  reason: string;
  /** Revoke only this version: what a vendor refused is given up, not a credential stored since. */
  version?: number | undefined;
}

export interface CredentialListFilter extends TenantKey {
  /** A principal's own credentials; `null` for the tenant's only; every one of the tenant's when omitted. */
  principalId?: string | null;
  ref?: string;
}

export interface CredentialStore {
  /** Stores a credential, replacing (and un-revoking) the one under the same key; its metadata back. */
  put(credential: NewCredential): Promise<CredentialMetadata>;
  /** The credential under exactly this key, with its secrets; no fallback from a principal to the tenant. */
  get(key: CredentialKey): Promise<StoredCredential | undefined>;
  /** Metadata only, by ref, then principal (the tenant's own first). */
  list(filter: CredentialListFilter): Promise<CredentialMetadata[]>;
  /** Compare-and-set of new tokens; false when the credential changed (or was revoked) since `version`. */
  update(update: CredentialUpdate): Promise<boolean>;
  /**
   * Erases the secrets and marks it revoked; false when there is none, it was revoked already, or it is no
   * longer at `version` when one is given (a reconnect or a refresh replaced the credential that was judged).
   */
  revoke(input: CredentialRevocation): Promise<boolean>;
}

const REF = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}$/;

/**
 * Refuses what no adapter should store: a ref that is not an identifier, an unknown kind, an empty secret.
 * Every adapter calls it first, so they refuse alike.
 */
export function checkNewCredential(credential: NewCredential): void {
  if (!REF.test(credential.ref)) {
    throw new TypeError(
      "a credential ref is 1-200 letters, digits and . _ : @ / - (it starts with one of the first two)",
    );
  }
  if (!CREDENTIAL_KINDS.includes(credential.kind)) {
    throw new TypeError(`a credential is of kind ${CREDENTIAL_KINDS.join(" or ")}`);
  }
  if (credential.provider.length === 0) throw new TypeError("a credential names the provider it is for");
  if (typeof credential.secrets.accessToken !== "string" || credential.secrets.accessToken.length === 0) {
    throw new TypeError(`the credential ${credential.ref} has no secret`);
  }
}

/** The metadata of a stored credential: a copy without its secrets, whatever else it holds. */
export function metadataOf(credential: StoredCredential): CredentialMetadata {
  const { secrets: _secrets, ...metadata } = credential;
  return { ...metadata, scopes: [...metadata.scopes] };
}

/** A PEM block (a GitHub App's private key): the one pasted secret with whitespace in it. */
const PEM_BLOCK = /^-----BEGIN ([A-Z0-9 ]+)-----\r?\n[A-Za-z0-9+/=\r\n]+\r?\n-----END \1-----$/;

/**
 * Why a pasted secret is not one: empty, or whitespace that means two tokens or a stray line. A PEM block
 * (a private key) is whole, line breaks and all. The reason never quotes the secret.
 */
export function pastedSecretProblem(secret: string): string | undefined {
  if (secret.length === 0) return "it is empty";
  if (PEM_BLOCK.test(secret)) return undefined;
  if (/\s/.test(secret))
    return "it holds whitespace (two tokens, or a stray line); a private key is pasted as its whole PEM block";
  return undefined;
}
