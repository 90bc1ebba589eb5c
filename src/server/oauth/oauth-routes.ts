/**
 * @module The server as an OAuth 2.1 authorization server for its own `/mcp` (MCP authorization,
 * 2025-11-25): discovery, dynamic registration, consent through the console login, and tokens that are
 * expiring API keys of the consenting user's tenant and principal (docs/decisions/0018).
 */
import type { Hono } from "hono";
import type { Challenge } from "../authenticate.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";
import { oauthAuthorizeRoutes } from "./oauth-authorize-routes.js";
import { oauthMetadataRoutes } from "./oauth-metadata-routes.js";
import { oauthRegisterRoute } from "./oauth-register-route.js";
import { oauthRevokeRoute } from "./oauth-revoke-route.js";
import { oauthTokenRoute } from "./oauth-token-route.js";
import { oauthUrlsOf } from "./oauth-urls.js";

/** Public routes: each is its own credential check (a code, a token, the console session). */
export function oauthRoutes(app: Hono<ServerEnv>, deps: ServerDeps, publicUrl: string | undefined): void {
  oauthMetadataRoutes(app, publicUrl, deps.oauth.clientMetadataDocuments);
  oauthRegisterRoute(app, deps);
  oauthAuthorizeRoutes(app, deps, publicUrl);
  oauthTokenRoute(app, deps);
  oauthRevokeRoute(app, deps);
}

/** `/mcp`'s 401 names its protected resource metadata (RFC 9728 §5.1), where an OAuth client starts. */
export const mcpChallenge =
  (publicUrl: string | undefined): Challenge =>
  (c, invalidToken) => {
    const { resourceMetadata } = oauthUrlsOf(c.req.url, publicUrl);
    const error = invalidToken ? ', error="invalid_token"' : "";
    return `Bearer realm="toolreg", resource_metadata="${resourceMetadata}"${error}`;
  };
