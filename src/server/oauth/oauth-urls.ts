/**
 * @module Where the server's OAuth parts live, as clients must be told: the issuer is the server's origin
 * (the one users reach, `--public-url`, or the one the request was sent to), and the protected resource is
 * its `/mcp`.
 */

export const MCP_PATH = "/mcp";
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";
export const AUTHORIZATION_SERVER_PATH = "/.well-known/oauth-authorization-server";

export interface OAuthUrls {
  issuer: string;
  /** The protected resource, `<issuer>/mcp`: what a token's `resource` must name. */
  resource: string;
  /** Its metadata, path-suffixed (RFC 9728 §3.1), as the 401's `resource_metadata` names it. */
  resourceMetadata: string;
  authorization: string;
  token: string;
  registration: string;
  revocation: string;
}

/** The URLs for a request to `requestUrl`, or under `publicUrl` when the server is reached through one. */
export function oauthUrlsOf(requestUrl: string, publicUrl: string | undefined): OAuthUrls {
  const issuer = new URL(publicUrl ?? requestUrl).origin;
  return {
    issuer,
    resource: `${issuer}${MCP_PATH}`,
    resourceMetadata: `${issuer}${PROTECTED_RESOURCE_PATH}${MCP_PATH}`,
    authorization: `${issuer}/oauth/authorize`,
    token: `${issuer}/oauth/token`,
    registration: `${issuer}/oauth/register`,
    revocation: `${issuer}/oauth/revoke`,
  };
}

/** Whether a `resource` a client sent (RFC 8707) names this server's `/mcp`, read as URLs (so `:80` matches no port). */
export function namesResource(presented: string, resource: string): boolean {
  try {
    const url = new URL(presented);
    return url.hash === "" && url.href === new URL(resource).href;
  } catch {
    return false;
  }
}
