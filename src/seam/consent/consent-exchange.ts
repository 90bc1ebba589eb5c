/**
 * @module A consent completed by another OAuth client than the seam's own: an imported MCP server's, whose
 * authorization server, client and token endpoint authentication come from discovery and registration
 * (the MCP SDK's client), not from a toolkit's code. It checks the answer's issuer, exchanges the code
 * with the consent's verifier and stores the tokens itself.
 */
import type { ConsentRequest } from "../../ports/consent-store.js";

export interface ConsentExchange {
  /**
   * Undefined when an answer naming `issuer` (RFC 9207's `iss`, or none) may come from this consent's
   * authorization server; else the server expected, for the refusal.
   */
  wrongIssuer(issuer: string | undefined): Promise<string | undefined>;
  /** Exchanges `code` with the request's PKCE verifier and stores the tokens; the scopes granted. */
  exchange(request: ConsentRequest, code: string): Promise<readonly string[]>;
}

/** The exchange for a consent's provider, when another client completes it. */
export type ConsentExchanges = (provider: string) => ConsentExchange | undefined;
