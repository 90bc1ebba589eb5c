/**
 * @module Reads an authorization request (OAuth 2.1 §4.1.1), the same whether it arrives as the client's
 * redirect (GET) or as the user's answer on the consent page (POST). A request whose client or redirect URI
 * is wrong is shown to the user, never redirected (the URI cannot be trusted); any other error goes back
 * to the client's redirect URI.
 */
import type { Caller } from "../../ports/auth-store.js";
import type { ClientLookup, RegisteredClient } from "./oauth-clients.js";
import type { OAuthErrorCode } from "./oauth-error.js";
import { CHALLENGE_SHAPE, type CodePayload, grantedScopes } from "./oauth-grant.js";
import { namesResource } from "./oauth-urls.js";

const SCOPE_LIST = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;
const MAX_STATE_LENGTH = 500;

export interface AuthorizationRequest {
  client: RegisteredClient;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  /** The scopes asked for, as sent; undefined asks for all the user's. */
  scope: string | undefined;
  state: string | undefined;
}

export type ReadAuthorization =
  | { ok: true; request: AuthorizationRequest }
  /** Shown to the user: the client or its redirect URI cannot be trusted with an answer. */
  | { ok: false; shown: string }
  /** Sent to the client at its redirect URI. */
  | { ok: false; redirect: string };

/** Reads the parameters against the client they name (or why it cannot be used) and this server's resource. */
export function readAuthorization(
  field: (name: string) => string | undefined,
  lookup: ClientLookup,
  resource: string,
): ReadAuthorization {
  if (!lookup.ok) return { ok: false, shown: lookup.reason };
  const { client } = lookup;
  const redirectUri = field("redirect_uri");
  // Exact match (OAuth 2.1 §2.3.1): no prefix, no normalising.
  if (redirectUri === undefined || !client.redirectUris.includes(redirectUri)) {
    return { ok: false, shown: "redirect_uri is not one of the client's redirect_uris" };
  }
  const state = field("state");
  const back = (error: OAuthErrorCode, description: string) => ({
    ok: false as const,
    redirect: redirectWith(redirectUri, { error, error_description: description, state }),
  });
  if (state !== undefined && state.length > MAX_STATE_LENGTH) {
    return back("invalid_request", `state is longer than ${MAX_STATE_LENGTH} characters`);
  }
  if (field("response_type") !== "code")
    return back("unsupported_response_type", "response_type must be code");
  const codeChallenge = field("code_challenge");
  if (
    codeChallenge === undefined ||
    field("code_challenge_method") !== "S256" ||
    !CHALLENGE_SHAPE.test(codeChallenge)
  ) {
    return back("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256");
  }
  const presented = field("resource");
  if (presented !== undefined && !namesResource(presented, resource)) {
    return back("invalid_target", `this server issues tokens for ${resource} only`);
  }
  const scope = field("scope") || undefined;
  if (scope !== undefined && !SCOPE_LIST.test(scope))
    return back("invalid_scope", "scope is not a list of scopes");
  return { ok: true, request: { client, redirectUri, codeChallenge, resource, scope, state } };
}

/** What the code of this request, consented to by `user`, is bound to. */
export const codePayloadOf = (request: AuthorizationRequest, user: Caller): CodePayload => ({
  clientId: request.client.clientId,
  redirectUri: request.redirectUri,
  codeChallenge: request.codeChallenge,
  resource: request.resource,
  scopes: grantedScopes(request.scope, user.scopes),
});

/** The redirect URI with these parameters added to its query (RFC 6749 §4.1.2); undefined ones left out. */
export function redirectWith(redirectUri: string, parameters: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters))
    if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}
