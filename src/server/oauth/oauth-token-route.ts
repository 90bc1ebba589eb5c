/**
 * @module The token endpoint (OAuth 2.1 §3.2): an authorization code with its PKCE verifier becomes a grant,
 * a refresh token renews one. Clients are public, so a request names its client_id and proves nothing else;
 * every code is bound to that client, its redirect URI, its challenge and its resource, and spent by any
 * attempt, right or wrong.
 */
import type { Hono } from "hono";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";
import { oauthError, oauthJson } from "./oauth-error.js";
import {
  CodePayloadSchema,
  createGrant,
  pkceMatches,
  RefreshPayloadSchema,
  readPayload,
  renewGrant,
  userKeyRevoked,
} from "./oauth-grant.js";
import { namesResource } from "./oauth-urls.js";
import { readForm } from "./read-form.js";
import { endReusedGrant } from "./refresh-reuse.js";

export function oauthTokenRoute(app: Hono<ServerEnv>, deps: ServerDeps): void {
  app.post("/oauth/token", async (c) => {
    const form = await readForm(c, deps.bodyTimeoutMs);
    if (form instanceof Response) return form;
    const field = (name: string) => form.get(name) ?? undefined;
    const lookup = await deps.oauth.client(field("client_id"));
    if (!lookup.ok) return oauthError("invalid_client", lookup.reason);
    const { client } = lookup;
    const presentedResource = field("resource");
    const grantType = field("grant_type");
    const now = Date.now();

    if (grantType === "authorization_code") {
      const code = field("code");
      const verifier = field("code_verifier");
      const redirectUri = field("redirect_uri");
      if (!code || !verifier || !redirectUri) {
        return oauthError(
          "invalid_request",
          "send code, code_verifier and redirect_uri with an authorization_code grant",
        );
      }
      // Spent now, whatever follows: a code that was tried with a wrong verifier is not tried again.
      const redeemed = await deps.auth.redeemGrantToken("code", code);
      const bound = redeemed && readPayload(CodePayloadSchema, redeemed.payload);
      if (!redeemed || !bound)
        return oauthError("invalid_grant", "the code is unknown, used or expired; authorize again");
      if (bound.clientId !== client.clientId)
        return oauthError("invalid_grant", "the code was issued to another client");
      if (bound.redirectUri !== redirectUri) {
        return oauthError("invalid_grant", "redirect_uri is not the one the code was issued for");
      }
      if (!pkceMatches(verifier, bound.codeChallenge)) {
        return oauthError("invalid_grant", "code_verifier does not match the code_challenge (S256)");
      }
      if (presentedResource !== undefined && !namesResource(presentedResource, bound.resource)) {
        return oauthError("invalid_target", `resource must be ${bound.resource}, as authorized`);
      }
      // What the user consented to, less what they no longer hold: a grant never holds more than its user,
      // nor more than the consent page showed (an empty consent stays empty).
      const scopes = bound.scopes.filter((scope) => redeemed.caller.scopes.includes(scope));
      const tokens = await createGrant(
        deps.auth,
        redeemed.caller,
        { clientId: client.clientId, clientName: client.name, resource: bound.resource, scopes },
        now,
      );
      deps.logger.info(
        { clientId: client.clientId, tenantId: redeemed.caller.tenantId },
        "OAuth grant created",
      );
      return oauthJson(tokens);
    }

    if (grantType === "refresh_token") {
      const token = field("refresh_token");
      if (!token) return oauthError("invalid_request", "send refresh_token with a refresh_token grant");
      const redeemed = await deps.auth.redeemGrantToken("refresh", token);
      const grant = redeemed && readPayload(RefreshPayloadSchema, redeemed.payload);
      if (!redeemed && (await endReusedGrant(deps, token))) {
        return oauthError(
          "invalid_grant",
          "the refresh token was already used: its grant is ended, since the token may be in other hands; authorize again",
        );
      }
      if (!redeemed || !grant) {
        return oauthError(
          "invalid_grant",
          "the refresh token is unknown, used, expired or revoked; authorize again",
        );
      }
      if (grant.clientId !== client.clientId)
        return oauthError("invalid_grant", "the refresh token is another client's");
      if (presentedResource !== undefined && !namesResource(presentedResource, grant.resource)) {
        return oauthError("invalid_target", `resource must be ${grant.resource}, as authorized`);
      }
      const asked = (field("scope") ?? "").split(" ").filter(Boolean);
      const beyond = asked.filter((scope) => !grant.scopes.includes(scope));
      if (beyond.length > 0)
        return oauthError("invalid_scope", `not granted: ${beyond.join(" ").slice(0, 200)}`);
      if (await userKeyRevoked(deps.auth, redeemed.caller.tenantId, grant)) {
        await deps.oauth.endGrant(redeemed.caller.keyId);
        deps.logger.info(
          { keyId: redeemed.caller.keyId, userKeyId: grant.userKeyId },
          "OAuth grant ended: the key its user consented with was revoked",
        );
        return oauthError(
          "invalid_grant",
          "the user's API key this grant was consented with was revoked: the grant is ended; authorize again",
        );
      }
      const tokens = await renewGrant(deps.auth, redeemed.caller.keyId, grant, now);
      if (!tokens) return oauthError("invalid_grant", "the grant was revoked; authorize again");
      // The old access token stops here at once; other instances' caches let it go within their second.
      deps.keys.forget(redeemed.caller.keyId);
      return oauthJson(tokens);
    }

    return oauthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
  });
}
