/**
 * @module Completes an imported MCP server's consent at the registry server's `/oauth/callback`: the
 * answer's `iss` is checked against the authorization server discovery found (RFC 9207), and the code is
 * exchanged by the SDK's `auth()` (its resource indicator, its token endpoint authentication), with the
 * verifier kept with the consent; the tokens land sealed in the credential store.
 */
import { auth, discoverOAuthServerInfo } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ConsentExchange } from "../../../seam/consent/consent-exchange.js";
import type { StoredOAuthProvider } from "./stored-oauth-provider.js";

export interface McpConsentExchangeInput {
  server: string;
  serverUrl: URL;
  /** The import's provider, which knows the discovery made when the consent was opened. */
  provider: StoredOAuthProvider;
  /** A provider completing one consent: the same stores, with that consent's verifier. */
  completing(codeVerifier: string): StoredOAuthProvider;
  fetch: FetchLike;
  /** Told once tokens are stored, so a connection waiting for them is made. */
  onAuthorized(): void;
}

export function mcpConsentExchange(input: McpConsentExchangeInput): ConsentExchange {
  const { server, serverUrl, fetch } = input;
  return {
    async wrongIssuer(issuer) {
      const metadata =
        input.provider.discoveryState()?.authorizationServerMetadata ??
        (await discoverOAuthServerInfo(serverUrl, { fetchFn: fetch })).authorizationServerMetadata;
      const expected = metadata?.issuer;
      const named = `the MCP server ${server}'s authorization server (${expected ?? "unknown"})`;
      if (issuer !== undefined) return expected !== undefined && issuer !== expected ? named : undefined;
      // RFC 9207 §2.4: a server that says it sends `iss` must send it.
      const sendsIssuer = (metadata as Record<string, unknown> | undefined)
        ?.authorization_response_iss_parameter_supported;
      return sendsIssuer === true ? named : undefined;
    },
    async exchange(request, code) {
      const provider = input.completing(request.codeVerifier);
      const result = await auth(provider, { serverUrl, authorizationCode: code, fetchFn: fetch });
      if (result !== "AUTHORIZED")
        throw new Error(`the MCP server ${server}'s authorization server gave no tokens`);
      input.onAuthorized();
      const scope = (await provider.tokens())?.scope;
      return scope ? scope.split(" ").filter(Boolean) : [...request.scopes];
    },
  };
}
