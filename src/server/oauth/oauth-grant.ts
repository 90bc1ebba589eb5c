/**
 * @module What an OAuth grant is made of. A code is a one-time grant token of the consenting user's key,
 * bound to the client, redirect URI, PKCE challenge, resource and granted scopes. Exchanging it creates the
 * grant: an API key of the user's tenant and principal, never an operator, expiring with the access token
 * (so it is listed and revoked with `toolreg keys`), and a refresh token of that key. A refresh gives the
 * key a new secret and a new end, and a new refresh token; the used one is spent (rotation).
 */
import { createHash } from "node:crypto";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { z } from "zod";
import type { ApiKeyRecord, AuthStore, Caller } from "../../ports/auth-store.js";
import { DECIDE_SCOPE } from "../routes/approvals-routes.js";
import { ELICIT_SCOPE } from "../routes/mcp-route.js";

export const CODE_TTL_MS = 60_000;
export const ACCESS_TOKEN_TTL_MS = 60 * 60_000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;
/** How a grant's key is labelled, and told from a key made with `toolreg keys create`. */
const GRANT_LABEL_PREFIX = "oauth: ";

/** Whether a key is an OAuth grant: labelled as one and expiring, as only createGrant makes it. */
export const isGrantKey = (record: ApiKeyRecord): boolean =>
  record.expiresAt !== undefined && !record.operator && (record.label ?? "").startsWith(GRANT_LABEL_PREFIX);

const Scopes = z.array(z.string());

export const CodePayloadSchema = z.strictObject({
  clientId: z.string(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  resource: z.string(),
  scopes: Scopes,
});
export type CodePayload = z.infer<typeof CodePayloadSchema>;

export const RefreshPayloadSchema = z.strictObject({
  clientId: z.string(),
  resource: z.string(),
  scopes: Scopes,
  /** The consenting user's key: the grant lives no longer than it. Absent in grants made before it was kept. */
  userKeyId: z.string().optional(),
});
export type RefreshPayload = z.infer<typeof RefreshPayloadSchema>;

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER_SHAPE = /^[A-Za-z0-9._~-]{43,128}$/;
/** A S256 challenge: the base64url SHA-256 of a verifier, always 43 characters. */
export const CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whether the verifier is the one the challenge was made from (S256, the only method served). */
export function pkceMatches(verifier: string, challenge: string): boolean {
  return (
    VERIFIER_SHAPE.test(verifier) && createHash("sha256").update(verifier).digest("base64url") === challenge
  );
}

/**
 * Scopes that let their holder decide approvals (over the API, or by answering its own client's form): a
 * client gets one only when it asks for it by name and the user consents to it, never by asking for nothing.
 */
const ASK_BY_NAME: readonly string[] = [DECIDE_SCOPE, ELICIT_SCOPE];

/**
 * The scopes a grant gets: those asked for that the consenting user holds, or, when none were asked for,
 * all the user's but those that decide approvals. Never more than the user has; a scope asked for and not
 * held is left out, as the answer's `scope` shows (RFC 6749 §3.3).
 */
export function grantedScopes(requested: string | undefined, held: readonly string[]): string[] {
  const asked = (requested ?? "").split(" ").filter(Boolean);
  return asked.length === 0
    ? held.filter((scope) => !ASK_BY_NAME.includes(scope))
    : [...new Set(asked)].filter((scope) => held.includes(scope));
}

/** Creates the grant's key and first refresh token for the consenting user. */
export async function createGrant(
  auth: AuthStore,
  user: Caller,
  grant: { clientId: string; clientName: string | undefined; resource: string; scopes: string[] },
  now: number,
): Promise<OAuthTokens> {
  const { key, record } = await auth.createKey({
    tenantId: user.tenantId,
    principalId: user.principalId,
    scopes: grant.scopes,
    mode: user.mode,
    operator: false,
    label: `${GRANT_LABEL_PREFIX}${grant.clientName ?? "unnamed client"} (${grant.clientId})`.slice(0, 200),
    expiresAt: now + ACCESS_TOKEN_TTL_MS,
  });
  return tokensOf(auth, record.id, key, { ...grant, userKeyId: user.keyId });
}

/** Renews a grant's key: a new access token and a new refresh token; undefined when the key was revoked. */
export async function renewGrant(
  auth: AuthStore,
  keyId: string,
  grant: RefreshPayload,
  now: number,
): Promise<OAuthTokens | undefined> {
  const key = await auth.renewKey(keyId, now + ACCESS_TOKEN_TTL_MS);
  return key === undefined ? undefined : tokensOf(auth, keyId, key, grant);
}

/**
 * Whether the key the user consented with was revoked (or is gone) since: their grants end with it, as
 * `toolreg keys revoke` of a user is meant to cut off everything acting for them. False for a grant made
 * before the consenting key was kept with it.
 */
export async function userKeyRevoked(
  auth: AuthStore,
  tenantId: string,
  grant: RefreshPayload,
): Promise<boolean> {
  if (grant.userKeyId === undefined) return false;
  const user = (await auth.listKeys({ tenantId })).find((key) => key.id === grant.userKeyId);
  return user === undefined || user.revokedAt !== undefined;
}

async function tokensOf(
  auth: AuthStore,
  keyId: string,
  key: string,
  grant: RefreshPayload,
): Promise<OAuthTokens> {
  const payload: RefreshPayload = {
    clientId: grant.clientId,
    resource: grant.resource,
    scopes: grant.scopes,
    userKeyId: grant.userKeyId,
  };
  const refreshToken = await auth.createGrantToken({
    kind: "refresh",
    keyId,
    payload: JSON.stringify(payload),
    ttlMs: REFRESH_TOKEN_TTL_MS,
  });
  return {
    access_token: key,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_MS / 1000,
    refresh_token: refreshToken,
    scope: grant.scopes.join(" "),
  };
}

/** A redeemed token's payload read with its schema; undefined when it does not parse (never written so). */
export function readPayload<T>(schema: z.ZodType<T>, payload: string): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
