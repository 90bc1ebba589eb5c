/**
 * @module What the OAuth tests do as the person at the browser: log in to the console with a one-time token,
 * read the consent page, answer it, and hand the code to a local callback; and an SDK OAuthClientProvider
 * that remembers what the SDK gives it.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { AuthStore } from "../../src/ports/auth-store.js";

/** A PKCE pair (RFC 7636, S256), as a client makes one per authorization. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/**
 * The authorization endpoint of the server at `origin`, asking for a code with an S256 challenge; `fields`
 * give the client, its redirect URI, the challenge and anything else the request carries.
 */
export function authorizeUrl(
  origin: string,
  fields: { client_id: string; redirect_uri: string; code_challenge: string } & Record<string, string>,
): URL {
  const url = new URL(`${origin}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: "code",
    code_challenge_method: "S256",
    ...fields,
  }))
    url.searchParams.set(name, value);
  return url;
}

/** A console session cookie for the live key of `principalId` in `tenantId`, through `/login`. */
export async function consoleLogin(
  url: string,
  auth: AuthStore,
  tenantId: string,
  principalId: string,
): Promise<string> {
  const key = (await auth.listKeys({ tenantId })).find(
    (candidate) => candidate.principalId === principalId && candidate.revokedAt === undefined,
  );
  if (!key) throw new Error(`no key for ${tenantId}/${principalId}`);
  const response = await fetch(`${url}/login?token=${await auth.createLoginToken(key.id)}`, {
    redirect: "manual",
  });
  const cookie = response.headers.get("set-cookie");
  if (response.status !== 303 || !cookie) throw new Error(`login failed: ${response.status}`);
  return cookie.split(";")[0]!;
}

/** The consent page's form fields (hidden inputs), as the browser would post them back. */
export function consentFields(html: string): URLSearchParams {
  const fields = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(match[1]!, decodeEntities(match[2]!));
  }
  return fields;
}

/** Opens the authorization URL as the logged-in user, answers `decision`, and returns where the server sent the browser. */
export async function consent(
  authorizationUrl: URL,
  cookie: string,
  decision: "allow" | "deny",
): Promise<URL> {
  const page = await fetch(authorizationUrl, { headers: { cookie }, redirect: "manual" });
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${await page.text()}`);
  const fields = consentFields(await page.text());
  fields.set("decision", decision);
  const answered = await fetch(new URL("/oauth/authorize", authorizationUrl), {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: fields,
    redirect: "manual",
  });
  const location = answered.headers.get("location");
  if (answered.status !== 303 || !location) throw new Error(`consent answer: ${answered.status}`);
  return new URL(location);
}

/** A local redirect target, as a desktop client runs one: it keeps the query of each request it gets. */
export async function startCallback(): Promise<{
  url: string;
  received: URLSearchParams[];
  close(): Promise<void>;
}> {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((request, response) => {
    received.push(new URL(request.url ?? "/", "http://127.0.0.1").searchParams);
    response.end("you can close this window");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An SDK OAuth client provider that keeps everything in memory and records the authorization URL. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;

  constructor(
    readonly redirectUrl: string,
    readonly name = "oauth test client",
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

function decodeEntities(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}
