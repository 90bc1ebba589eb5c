/**
 * @module Discovery: the protected resource metadata of `/mcp` (RFC 9728, at the path-suffixed address a
 * 401 names and at the bare one) and the authorization server metadata (RFC 8414), each checked against the
 * MCP SDK's schema before it is served. No OpenID discovery: this server issues no ID tokens.
 */
import {
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Context, Hono } from "hono";
import type { ServerEnv } from "../server-env.js";
import { oauthJson } from "./oauth-error.js";
import { AUTHORIZATION_SERVER_PATH, MCP_PATH, oauthUrlsOf, PROTECTED_RESOURCE_PATH } from "./oauth-urls.js";

export function oauthMetadataRoutes(
  app: Hono<ServerEnv>,
  publicUrl: string | undefined,
  clientMetadataDocuments: boolean,
): void {
  const protectedResource = (c: Context) => {
    const urls = oauthUrlsOf(c.req.url, publicUrl);
    return oauthJson(
      OAuthProtectedResourceMetadataSchema.parse({
        resource: urls.resource,
        authorization_servers: [urls.issuer],
        bearer_methods_supported: ["header"],
        resource_name: "toolreg",
      }),
    );
  };
  app.get(`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, protectedResource);
  app.get(PROTECTED_RESOURCE_PATH, protectedResource);

  app.get(AUTHORIZATION_SERVER_PATH, (c) => {
    const urls = oauthUrlsOf(c.req.url, publicUrl);
    return oauthJson(
      OAuthMetadataSchema.parse({
        issuer: urls.issuer,
        authorization_endpoint: urls.authorization,
        token_endpoint: urls.token,
        registration_endpoint: urls.registration,
        revocation_endpoint: urls.revocation,
        revocation_endpoint_auth_methods_supported: ["none"],
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: clientMetadataDocuments,
      }),
    );
  });
}
