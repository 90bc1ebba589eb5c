/**
 * @module OAuth clients registered dynamically (RFC 7591), the way MCP clients that were never configured
 * for this server introduce themselves. Every client is public (no secret: it runs on a user's machine or
 * page), so it authenticates with PKCE alone; redirect URIs are HTTPS, loopback HTTP, or an app's own scheme.
 */
import {
  type OAuthClientInformationFull,
  type OAuthClientMetadata,
  OAuthClientMetadataSchema,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { AuthStore } from "../../ports/auth-store.js";

const MAX_REDIRECT_URIS = 10;
export const MAX_URI_LENGTH = 2_000;
const MAX_NAME_LENGTH = 100;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const NOT_APP_SCHEMES = new Set(["file:", "blob:", "about:", "ftp:", "ws:", "wss:"]);

export interface RegisteredClient {
  clientId: string;
  redirectUris: readonly string[];
  /** As the client named itself: shown at consent and in the key's label, never trusted. */
  name: string | undefined;
}

export type ClientMetadataRefusal = {
  ok: false;
  error: "invalid_client_metadata" | "invalid_redirect_uri";
  description: string;
};

/**
 * A client's metadata as this server keeps it, or why it is refused: whether it came in a registration or
 * in a client ID metadata document, the same redirect URIs and grant types pass. Every client is public,
 * whatever method it asked for: the answer says so, and the SDK's client (like others) then authenticates
 * with its client_id and PKCE.
 */
export function checkClientMetadata(
  body: unknown,
): { ok: true; metadata: OAuthClientMetadata } | ClientMetadataRefusal {
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "the body";
    return { ok: false, error: "invalid_client_metadata", description: `${where}: ${issue?.message}` };
  }
  const { redirect_uris: redirectUris, client_name: name } = parsed.data;
  if (redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS) {
    return {
      ok: false,
      error: "invalid_redirect_uri",
      description: `redirect_uris must hold 1 to ${MAX_REDIRECT_URIS} URIs`,
    };
  }
  for (const uri of redirectUris) {
    const refusal = redirectUriRefusal(uri);
    if (refusal)
      return { ok: false, error: "invalid_redirect_uri", description: `${uri.slice(0, 200)}: ${refusal}` };
  }
  const grantTypes = parsed.data.grant_types ?? ["authorization_code", "refresh_token"];
  if (grantTypes.some((type) => type !== "authorization_code" && type !== "refresh_token")) {
    return {
      ok: false,
      error: "invalid_client_metadata",
      description: "grant_types may hold only authorization_code and refresh_token",
    };
  }
  return {
    ok: true,
    metadata: {
      ...parsed.data,
      ...(name === undefined ? {} : { client_name: name.slice(0, MAX_NAME_LENGTH) }),
      token_endpoint_auth_method: "none",
      grant_types: grantTypes,
      response_types: ["code"],
    },
  };
}

/** A client as an endpoint finds it, or why it cannot be used (shown to the user, never sent to a redirect URI). */
export type ClientLookup = { ok: true; client: RegisteredClient } | { ok: false; reason: string };

/** The registration's answer, or why its metadata is refused (`invalid_client_metadata` / `invalid_redirect_uri`). */
export async function registerClient(
  auth: AuthStore,
  body: unknown,
): Promise<{ ok: true; client: OAuthClientInformationFull } | ClientMetadataRefusal> {
  const checked = checkClientMetadata(body);
  if (!checked.ok) return checked;
  const { metadata } = checked;
  const record = await auth.registerClient(JSON.stringify(metadata));
  return {
    ok: true,
    client: {
      ...metadata,
      client_id: record.clientId,
      client_id_issued_at: Math.floor(record.createdAt / 1000),
    },
  };
}

/** A registered client as the authorization and token endpoints need it, or undefined for an unknown id. */
export async function readClient(
  auth: AuthStore,
  clientId: string | undefined,
): Promise<RegisteredClient | undefined> {
  if (clientId === undefined) return undefined;
  const record = await auth.client(clientId);
  if (!record) return undefined;
  // Written by registerClient above, so it parses; a client whose row does not is treated as unknown.
  const metadata = OAuthClientMetadataSchema.safeParse(JSON.parse(record.metadata));
  if (!metadata.success) return undefined;
  return {
    clientId: record.clientId,
    redirectUris: metadata.data.redirect_uris,
    name: metadata.data.client_name,
  };
}

/** Why a redirect URI may not be registered (OAuth 2.1 §2.3.1, RFC 8252 §7), or undefined. */
function redirectUriRefusal(uri: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return `longer than ${MAX_URI_LENGTH} characters`;
  const url = new URL(uri);
  if (url.hash !== "") return "a redirect URI may not have a fragment";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? undefined
      : "plain http is only for a loopback host (localhost, 127.0.0.1, [::1])";
  }
  // An app's own scheme (cursor:, com.example.app:); SafeUrlSchema has refused javascript:, data: and vbscript:.
  return NOT_APP_SCHEMES.has(url.protocol)
    ? `${url.protocol} is not a scheme a browser can hand back to a client`
    : undefined;
}
