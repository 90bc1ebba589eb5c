/**
 * @module OAuth errors as RFC 6749 §5.2 has them: JSON `{ error, error_description }`, never cached. The
 * OAuth endpoints answer in this shape rather than the API's problem details, because OAuth clients read it.
 */
import { SECURITY_HEADERS } from "../security-headers.js";

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_client_metadata"
  | "invalid_redirect_uri"
  | "access_denied"
  | "unsupported_response_type"
  | "unsupported_token_type"
  | "temporarily_unavailable"
  | "server_error";

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const;

/** A JSON OAuth error; `invalid_client` is a 401 (RFC 6749 §5.2), the rest a 400 unless told. */
export function oauthError(
  error: OAuthErrorCode,
  description: string,
  status?: number,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status: status ?? (error === "invalid_client" ? 401 : error === "server_error" ? 500 : 400),
    headers: { ...SECURITY_HEADERS, ...NO_STORE, "content-type": "application/json", ...headers },
  });
}

/** A JSON body with the OAuth endpoints' headers. */
export function oauthJson(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...SECURITY_HEADERS, ...NO_STORE, "content-type": "application/json" },
  });
}
