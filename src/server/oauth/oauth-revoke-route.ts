/**
 * @module Token revocation (RFC 7009). A client that is done (its user signed out, uninstalled it) ends its
 * grant here with either token: an access token is the grant's key, a refresh token names it, and either
 * way the key is revoked as `toolreg keys revoke` revokes it, on every instance. Clients are public, so
 * holding the token is all a request can prove; a token that is unknown, spent or expired is answered 200
 * as the RFC asks (§2.2), leaving nothing for a guesser to learn. A rotated refresh token presented here
 * is reuse, and ends its grant too.
 */
import type { Hono } from "hono";
import { SECURITY_HEADERS } from "../security-headers.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";
import { NO_STORE, oauthError } from "./oauth-error.js";
import { isGrantKey } from "./oauth-grant.js";
import { readForm } from "./read-form.js";
import { endReusedGrant } from "./refresh-reuse.js";

const API_KEY_PREFIX = "trk_";

export function oauthRevokeRoute(app: Hono<ServerEnv>, deps: ServerDeps): void {
  app.post("/oauth/revoke", async (c) => {
    const form = await readForm(c, deps.bodyTimeoutMs);
    if (form instanceof Response) return form;
    const token = form.get("token");
    if (!token) return oauthError("invalid_request", "send the token to revoke as token");

    if (token.startsWith(API_KEY_PREFIX)) {
      const caller = await deps.auth.verifyKey(token);
      if (caller) {
        const record = (await deps.auth.listKeys({ tenantId: caller.tenantId })).find(
          (key) => key.id === caller.keyId,
        );
        if (!record || !isGrantKey(record)) {
          return oauthError(
            "unsupported_token_type",
            "this is an API key, not an OAuth grant: an operator revokes it with toolreg keys revoke",
          );
        }
        await deps.oauth.endGrant(caller.keyId);
        deps.logger.info({ keyId: caller.keyId }, "OAuth grant revoked by its client (access token)");
      }
      return revoked();
    }

    const redeemed = await deps.auth.redeemGrantToken("refresh", token);
    if (redeemed) {
      await deps.oauth.endGrant(redeemed.caller.keyId);
      deps.logger.info({ keyId: redeemed.caller.keyId }, "OAuth grant revoked by its client (refresh token)");
    } else {
      await endReusedGrant(deps, token);
    }
    return revoked();
  });
}

/** RFC 7009 §2.2: 200 with no content to read, the same whether or not there was anything to revoke. */
const revoked = (): Response =>
  new Response(null, { status: 200, headers: { ...SECURITY_HEADERS, ...NO_STORE } });
