/** @module What a host gives the seam for stored credentials and consent (`SeamOptions.consent`). */
import type { ConsentStore } from "../../ports/consent-store.js";
import type { CredentialStore } from "../../ports/credential-store.js";
import type { ConsentExchanges } from "./consent-exchange.js";
import type { CredentialInspector } from "./credential-inspector.js";
import type { OAuthClients } from "./oauth-clients.js";
import type { OAuthTransport } from "./token-endpoint.js";

export interface ConsentOptions {
  /** Consents under way and the calls parked for them. */
  requests: ConsentStore;
  /** Where the tokens a user consents to are stored. */
  credentials: CredentialStore;
  /** The host's resolver chain, the one its contexts carry: whether a credential is usable now. */
  resolver: CredentialInspector;
  clients: OAuthClients;
  /** How token endpoints are reached: the egress client. */
  transport: OAuthTransport;
  /**
   * The callback the provider sends the user back to: the server's `/oauth/callback`. A function when the
   * server's address is known only once it listens.
   */
  redirectUri: string | (() => string);
  /**
   * The link a parked call's user opens: the host's start page for a consent (the server's
   * `/oauth/start/<consentId>`), which binds the consent to that user's browser before sending it on.
   */
  consentLink(consentId: string): string;
  /** Consents another client completes, by provider: an imported MCP server's (its own discovery and client). */
  exchanges?: ConsentExchanges;
  /** How long a consent link works; 10 minutes. */
  stateTtlMs?: number;
  /** How long a parked call waits for its user's consent; 1 hour. */
  callTtlMs?: number;
}
