/**
 * @module How a toolkit's vendor knows who is calling. The kind decides what a missing credential does:
 * a toolkit that can send its user to a login URL parks the call for consent, one that cannot fails with a
 * message naming what to configure.
 */
import type { CredentialPlacement as EgressCredentialPlacement } from "../../egress/egress-policy.js";

/** The OAuth 2 endpoints of a vendor, for the authorization-code flow with PKCE. */
export interface OAuthEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  /** How the vendor joins scopes in the `scope` parameter; a space unless it says otherwise. */
  scopeSeparator?: " " | ",";
  /**
   * The authorization server's issuer identifier. When given, a callback carrying `iss` (RFC 9207) must name
   * it: one callback serves every vendor, so an answer from another server is refused (a mix-up attack).
   */
  issuer?: string;
  /**
   * Scopes asked for in every authorization request besides the tools' own, and never required of a grant:
   * Atlassian issues a refresh token only to a request that asks for `offline_access`.
   */
  requestAlways?: readonly string[];
}

/**
 * Where and how the resolved secret goes on each request to the vendor: `{ header, scheme? }`; `{ query }`
 * for a vendor that takes its key only in the URL (`{ query: "appid" }`); `{ bodyField }` for one that takes
 * it only in a JSON body (`{ bodyField: "key" }`). Exactly one.
 */
export type CredentialPlacement = EgressCredentialPlacement;

/** Just the placement of `auth` (or of a credential), without what else it carries. */
export function placementOf(placement: CredentialPlacement): CredentialPlacement {
  if (placement.query !== undefined) return { query: placement.query };
  if (placement.bodyField !== undefined) return { bodyField: placement.bodyField };
  return {
    header: placement.header,
    ...(placement.scheme !== undefined ? { scheme: placement.scheme } : {}),
  };
}

/**
 * What each of a vendor's scopes grants besides itself, as its docs say: `{ project: ["read:project"] }`.
 * Vendors store a grant normalised (GitHub keeps `project`, not `project read:project`), so a connection
 * holding `project` has what a tool needing `read:project` asks for. Followed transitively.
 */
export type ScopeImplications = Readonly<Record<string, readonly string[]>>;

/** The consent side of an auth model: where to ask, and how the vendor's scopes contain one another. */
export interface OAuthConsent {
  oauth: OAuthEndpoints;
  impliedScopes?: ScopeImplications;
}

export type ToolkitAuth =
  /** Reaches no vendor account (the built-in toolkits). */
  | { kind: "none" }
  /** A deployment's API key: no per-user identity, no login URL. */
  | ({ kind: "api-key" } & CredentialPlacement)
  /** A token pasted in (a bot token, an integration token): a missing one fails, it cannot pause. */
  | ({ kind: "token" } & CredentialPlacement)
  /** A token, or an OAuth connection the user consents to: the tenant chooses. */
  | ({ kind: "token-or-oauth" } & OAuthConsent & CredentialPlacement)
  /** Only an OAuth connection. */
  | ({ kind: "oauth" } & OAuthConsent & CredentialPlacement);

export type AuthKind = ToolkitAuth["kind"];

/** Whether a missing or dead credential can send the user to a consent page instead of failing the call. */
export function canAskForConsent(auth: ToolkitAuth): auth is Extract<ToolkitAuth, { oauth: OAuthEndpoints }> {
  return auth.kind === "token-or-oauth" || auth.kind === "oauth";
}
