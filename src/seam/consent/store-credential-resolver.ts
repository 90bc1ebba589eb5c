/**
 * @module The credential resolver over the CredentialStore: a caller's own credential first, then the
 * tenant's; an OAuth token about to expire is refreshed with its refresh token at the provider's token
 * endpoint, once however many calls want it at the same moment, and stored (over the version it read, so a
 * refresh in another process is not overwritten). Its errors never carry a secret.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { CredentialStore, StoredCredential } from "../../ports/credential-store.js";
import {
  type CredentialCheck,
  type CredentialInspector,
  type CredentialScope,
  CredentialUnavailableError,
} from "./credential-inspector.js";
import type { OAuthClients } from "./oauth-clients.js";
import { OAuthTokenError, type OAuthTransport, requestToken } from "./token-endpoint.js";

/** The token endpoint's answers that mean this refresh token is dead (RFC 6749 §5.2; GitHub's own word). */
const REFUSED_GRANT: ReadonlySet<string> = new Set(["invalid_grant", "bad_refresh_token"]);

export interface StoreCredentialResolverOptions {
  store: CredentialStore;
  /** The OAuth apps and endpoints to refresh with; without them an expired token is unusable. */
  clients?: OAuthClients;
  /** How the token endpoint is reached: the egress client. */
  transport?: OAuthTransport;
  now?: () => number;
  /** A token this close to its expiry is refreshed before use; 60 s. */
  refreshAheadMs?: number;
}

export function createStoreCredentialResolver(options: StoreCredentialResolverOptions): CredentialInspector {
  const { store, clients, transport } = options;
  const now = options.now ?? Date.now;
  const ahead = options.refreshAheadMs ?? 60_000;
  /** Refreshes under way in this process, by credential: every caller waiting on one shares its request. */
  const refreshing = new Map<string, Promise<string>>();

  /** The caller's own credential, else the tenant's. */
  const find = async (ref: string, scope: CredentialScope): Promise<StoredCredential | undefined> =>
    (await store.get({ tenantId: scope.tenantId, principalId: scope.principalId, ref })) ??
    (await store.get({ tenantId: scope.tenantId, ref }));

  const refresh = async (credential: StoredCredential): Promise<string> => {
    const refreshToken = credential.secrets?.refreshToken;
    const client = await clients?.clientFor(credential.tenantId, credential.provider);
    if (!refreshToken || !client || !transport) {
      const missing = !refreshToken
        ? "it has no refresh token"
        : `no OAuth app for ${credential.provider} is configured`;
      throw new CredentialUnavailableError(
        "expired",
        `the credential "${credential.ref}" has expired and ${missing}`,
      );
    }
    let tokens: Awaited<ReturnType<typeof requestToken>>;
    try {
      tokens = await requestToken(
        transport,
        client.endpoints.tokenUrl,
        client.app,
        { type: "refresh_token", refreshToken },
        now(),
      );
    } catch (error) {
      if (error instanceof OAuthTokenError && REFUSED_GRANT.has(error.code)) {
        // The provider will not refresh it again (revoked or expired): a person must consent anew. Any other
        // refusal (a rotated client secret, a proxy's error page) is the deployment's to fix: the credential stays.
        await store.revoke({
          ...keyOf(credential),
          version: credential.version,
          at: now(),
          reason: `the provider refused its refresh: ${error.code}`,
        });
        throw new CredentialUnavailableError(
          "expired",
          `the credential "${credential.ref}" has expired and ${error.message}`,
        );
      }
      throw new CredentialUnavailableError(
        "unreachable",
        `the credential "${credential.ref}" could not be refreshed: ${(error as Error).message}`,
      );
    }
    const stored = await store.update({
      ...keyOf(credential),
      version: credential.version,
      // A provider that does not rotate refresh tokens sends none back: the old one stays good.
      secrets: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken ?? refreshToken },
      expiresAt: tokens.expiresAt,
      ...(tokens.scopes ? { scopes: tokens.scopes } : {}),
      at: now(),
    });
    if (stored) return tokens.accessToken;
    // Another process refreshed (or someone reconnected) first: its token is the one to use.
    const winner = await store.get(keyOf(credential));
    if (winner?.secrets && !expiring(winner)) return winner.secrets.accessToken;
    throw new CredentialUnavailableError(
      "unreachable",
      `the credential "${credential.ref}" changed while it was refreshed; retry`,
    );
  };

  const expiring = (credential: StoredCredential) =>
    credential.expiresAt !== undefined && credential.expiresAt - ahead <= now();

  /** The secret to send, refreshing first when it is about to expire. */
  const secretOf = async (credential: StoredCredential): Promise<string> => {
    if (credential.revokedAt !== undefined || !credential.secrets) {
      throw new CredentialUnavailableError(
        "revoked",
        `the credential "${credential.ref}" was revoked (${credential.revokedReason ?? "no reason given"})`,
      );
    }
    if (!expiring(credential)) return credential.secrets.accessToken;
    const id = JSON.stringify([credential.tenantId, credential.principalId ?? "", credential.ref]);
    let pending = refreshing.get(id);
    if (!pending) {
      pending = refresh(credential).finally(() => refreshing.delete(id));
      refreshing.set(id, pending);
    }
    return pending;
  };

  const use = async (ref: string, scope: CredentialScope) => {
    const credential = await find(ref, scope);
    if (!credential) {
      throw new CredentialUnavailableError(
        "missing",
        `no credential "${ref}" is stored for ${scope.principalId} or tenant ${scope.tenantId}`,
      );
    }
    return { credential, secret: await secretOf(credential) };
  };

  return {
    async resolve(ref, scope) {
      return (await use(ref, scope)).secret;
    },
    async inspect(ref, scope): Promise<CredentialCheck> {
      try {
        const { credential } = await use(ref, scope);
        return {
          usable: true,
          kind: credential.kind,
          scopes: credential.kind === "oauth" ? credential.scopes : undefined,
        };
      } catch (error) {
        if (!(error instanceof CredentialUnavailableError)) throw error;
        return { usable: false, problem: error.problem, message: error.message };
      }
    },
    async reject(ref, scope, reason, sent) {
      const credential = await find(ref, scope);
      const current = credential?.secrets?.accessToken;
      // Only the token the vendor refused, and only at the version read: a reconnect racing this is kept.
      if (credential && current !== undefined && sameSecret(current, sent)) {
        await store.revoke({ ...keyOf(credential), version: credential.version, at: now(), reason });
      }
    },
  };
}

/** Compares two secrets in constant time: equal-length digests, so neither the length nor a prefix leaks. */
function sameSecret(a: string, b: string): boolean {
  const digest = (secret: string) => createHash("sha256").update(secret).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function keyOf(credential: StoredCredential) {
  return { tenantId: credential.tenantId, principalId: credential.principalId, ref: credential.ref };
}
