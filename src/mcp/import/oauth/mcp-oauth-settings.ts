/**
 * @module How an imported MCP server is authorized with OAuth (the MCP authorization spec): whose
 * connection it is, which client toolreg is at the authorization server, and what the host gives for
 * keeping tokens and asking for consent.
 */
import type { ConsentStore } from "../../../ports/consent-store.js";
import type { CredentialStore } from "../../../ports/credential-store.js";

export const TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"] as const;

export interface McpOAuthSettings {
  /** The tenant whose credential the connection is: every call to the server goes out with its token. */
  tenantId: string;
  /** The user asked to consent, signed in to the console as that principal of the tenant. */
  principalId: string;
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
