/**
 * @module A client of an OAuth 2 token endpoint (RFC 6749 §4.1.3 code exchange with PKCE, §6 refresh), sent
 * through a transport the host gives (the egress client), so the request is checked, pinned and bounded
 * like every other. The client authenticates in the body (`client_secret_post`): egress lets no caller set
 * an `authorization` header.
 */

/** What the token endpoint is reached through; the egress client satisfies it. */
export interface OAuthTransport {
  request(
    url: string,
    init: { method: "POST"; headers: Record<string, string>; body: string; timeoutMs?: number },
  ): Promise<{ status: number; headers: Record<string, string>; body: Uint8Array }>;
}

/** An OAuth app: the client toolreg is registered as at the vendor. */
export interface OAuthApp {
  clientId: string;
  /** Absent for a public client, which proves itself with PKCE alone. */
  clientSecret?: string | undefined;
}

/** Tokens as a token endpoint granted them. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | undefined;
  /** Epoch ms; undefined when the endpoint gave no `expires_in`. */
  expiresAt: number | undefined;
  /** Undefined when the endpoint did not say, which means what was asked for was granted (RFC 6749 §5.1). */
  scopes: string[] | undefined;
}

/** A token endpoint refused, or could not be read. `transient` failures may pass; the others will not. */
export class OAuthTokenError extends Error {
  readonly code: string;
  readonly transient: boolean;

  constructor(code: string, message: string, transient: boolean) {
    super(message);
    this.name = "OAuthTokenError";
    this.code = code;
    this.transient = transient;
  }
}

export type TokenGrant =
  | { type: "authorization_code"; code: string; codeVerifier: string; redirectUri: string }
  | { type: "refresh_token"; refreshToken: string };

const TIMEOUT_MS = 15_000;
const BEARER_TYPES: ReadonlySet<string> = new Set(["bearer", "bot", "user"]);

/** Asks the token endpoint for tokens; throws an OAuthTokenError whose message holds no secret. */
export async function requestToken(
  transport: OAuthTransport,
  tokenUrl: string,
  app: OAuthApp,
  grant: TokenGrant,
  now: number,
): Promise<TokenSet> {
  const form = new URLSearchParams({ grant_type: grant.type, client_id: app.clientId });
  if (app.clientSecret !== undefined) form.set("client_secret", app.clientSecret);
  if (grant.type === "authorization_code") {
    form.set("code", grant.code);
    form.set("code_verifier", grant.codeVerifier);
    form.set("redirect_uri", grant.redirectUri);
  } else {
    form.set("refresh_token", grant.refreshToken);
  }
  let response: Awaited<ReturnType<OAuthTransport["request"]>>;
  try {
    response = await transport.request(tokenUrl, {
      method: "POST",
      // GitHub answers form-encoded unless asked for JSON (docs.github.com, "Authorizing OAuth apps").
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form.toString(),
      timeoutMs: TIMEOUT_MS,
    });
  } catch (error) {
    throw new OAuthTokenError(
      "unreachable",
      `the token endpoint ${tokenUrl} could not be reached: ${(error as Error).message}`,
      true,
    );
  }
  const body = readBody(response.body, response.headers["content-type"]);
  // An `error` member is an error whatever the status: GitHub sends its token errors with 200
  // (docs.github.com, "Troubleshooting OAuth app access token request errors").
  if (typeof body?.error === "string") {
    const described =
      typeof body.error_description === "string" ? `: ${body.error_description.slice(0, 300)}` : "";
    throw new OAuthTokenError(
      body.error,
      `the token endpoint ${tokenUrl} refused the ${grant.type} grant (${body.error}${described})`,
      response.status >= 500,
    );
  }
  if (response.status >= 500 || response.status === 429) {
    throw new OAuthTokenError(
      "unavailable",
      `the token endpoint ${tokenUrl} answered ${response.status}`,
      true,
    );
  }
  if (response.status !== 200 || !body) {
    throw new OAuthTokenError(
      "invalid_response",
      `the token endpoint ${tokenUrl} answered ${response.status} without tokens toolreg could read`,
      false,
    );
  }
  return toTokenSet(body, tokenUrl, now);
}

function readBody(bytes: Uint8Array, type: string | undefined): Record<string, unknown> | undefined {
  const text = Buffer.from(bytes).toString("utf8");
  if (type?.includes("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** RFC 6749 §5.1: access_token and token_type are required; expires_in, refresh_token and scope are not. */
function toTokenSet(body: Record<string, unknown>, tokenUrl: string, now: number): TokenSet {
  const { access_token: accessToken, token_type: tokenType, refresh_token: refreshToken } = body;
  if (typeof accessToken !== "string" || accessToken.length === 0) {
    throw new OAuthTokenError(
      "invalid_response",
      `the token endpoint ${tokenUrl} sent no access_token`,
      false,
    );
  }
  // Slack's OAuth v2 names its tokens "bot" and "user"; both are sent as bearer tokens, like any other.
  if (typeof tokenType !== "string" || !BEARER_TYPES.has(tokenType.toLowerCase())) {
    throw new OAuthTokenError(
      "invalid_response",
      `the token endpoint ${tokenUrl} sent a token of type ${String(tokenType).slice(0, 40)}, not bearer`,
      false,
    );
  }
  const expiresIn = Number(body.expires_in);
  return {
    accessToken,
    refreshToken: typeof refreshToken === "string" && refreshToken.length > 0 ? refreshToken : undefined,
    expiresAt:
      body.expires_in !== undefined && Number.isFinite(expiresIn) ? now + expiresIn * 1000 : undefined,
    // Space-separated per RFC 6749 §3.3; GitHub joins them with commas.
    scopes: typeof body.scope === "string" ? body.scope.split(/[\s,]+/).filter(Boolean) : undefined,
  };
}
