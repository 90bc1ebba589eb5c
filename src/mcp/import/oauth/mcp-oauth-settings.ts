/**
 * @module How an imported MCP server is authorized with OAuth (the MCP authorization spec): whose
 * connection it is, which client toolreg is at the authorization server, and what the host gives for
 * keeping tokens and asking for consent.
 */
import type { ConsentStore } from "../../../ports/consent-store.js";
import type { CredentialStore } from "../../../ports/credential-store.js";

export const TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"] as const;

/**
 * Whose token a call goes out with. `tenant`: the configured tenant's, for its callers only (another
 * tenant's call is refused). `deployment`: that same token for every tenant's callers. `user`: each
 * caller's own (tenant and principal), consented by that user.
 */
export const OAUTH_TOKEN_OWNERS = ["tenant", "deployment", "user"] as const;
export type OAuthTokenOwner = (typeof OAUTH_TOKEN_OWNERS)[number];

export interface McpOAuthSettings {
  /** Whose token each call carries; `tenant` by default. */
  per?: OAuthTokenOwner | undefined;
  /**
   * The tenant whose credential the connection is (`tenant`, `deployment`); with `per: "user"`, the tenant
   * of the user whose connection lists the tools.
   */
  tenantId: string;
  /**
   * The user asked to consent, signed in to the console as that principal of the tenant; with
   * `per: "user"`, the user whose own token lists the tools (and runs that user's calls).
   */
  principalId: string;
  /** `per: "user"`: how many users' connections stay open (100) and how long an unused one does (5 min). */
  userConnections?: { max?: number | undefined; idleMs?: number | undefined } | undefined;
  /** A client registered beforehand; without one, a client ID metadata document or dynamic registration. */
  clientId?: string | undefined;
  /** The pre-registered client's secret, as a credential reference (`env:NAME`). */
  clientSecretRef?: string | undefined;
  /** An https URL serving toolreg's client metadata, used as the client id where the server accepts it. */
  clientMetadataUrl?: string | undefined;
  /** Asked for when neither the server's challenge nor its metadata names any. */
  scopes?: readonly string[] | undefined;
  /** How a registered client proves itself at the token endpoint; the server's first supported one by default. */
  tokenEndpointAuthMethod?: (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number] | undefined;
}

/** What the host (the registry server) gives an OAuth import: its sealed stores and its consent URLs. */
export interface McpOAuthHost {
  credentials: CredentialStore;
  consents: ConsentStore;
  /** The server's `/oauth/callback`, where the authorization server sends the user back. */
  redirectUri(): string;
  /** toolreg's start link for a consent (`/oauth/start/<id>`), which the user opens signed in. */
  consentLink(consentId: string): string;
  /** How long a consent link works; 10 minutes. */
  consentTtlMs?: number;
}
