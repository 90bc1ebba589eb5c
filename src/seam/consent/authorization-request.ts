/**
 * @module The authorization request a user is sent to (RFC 6749 §4.1.1 with PKCE, RFC 7636): a random state
 * that names the pending consent, and an S256 challenge whose verifier only toolreg knows.
 */
import { createHash, randomBytes } from "node:crypto";
import type { OAuthProviderEndpoints } from "./oauth-clients.js";

export interface AuthorizationRequest {
  state: string;
  stateHash: string;
  codeVerifier: string;
  url: string;
}

/** The hash a consent is found by: the state itself is kept only inside the sealed URL. */
export function hashState(state: string): string {
  return createHash("sha256").update(state).digest("base64url");
}

export function newAuthorizationRequest(input: {
  endpoints: OAuthProviderEndpoints;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
}): AuthorizationRequest {
  const state = randomBytes(32).toString("base64url");
  // 32 random bytes make a 43-character verifier, the shortest RFC 7636 §4.1 allows and as strong as it gets.
  const codeVerifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(codeVerifier).digest("base64url");
  const url = new URL(input.endpoints.authorizeUrl);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", input.clientId);
  url.searchParams.set("redirect_uri", input.redirectUri);
  const scopes = [...new Set([...input.scopes, ...(input.endpoints.requestAlways ?? [])])];
  if (scopes.length > 0) url.searchParams.set("scope", scopes.join(input.endpoints.scopeSeparator ?? " "));
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", challenge);
  url.searchParams.set("code_challenge_method", "S256");
  return { state, stateHash: hashState(state), codeVerifier, url: url.href };
}
