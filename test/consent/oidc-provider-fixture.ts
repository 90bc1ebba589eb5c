/**
 * @module A real OAuth 2 / OpenID provider on 127.0.0.1 (oidc-provider 9): one confidential client for
 * toolreg (authorization code, PKCE required, `client_secret_post`), one for the vendor's API that
 * introspects tokens (RFC 7662), revocation (RFC 7009), and resource indicators (RFC 8707) so access tokens
 * are opaque tokens for that API with its scopes (the notes API's by default; a test may give another API,
 * and the paths a vendor serves its endpoints at). Its login and consent pages are this fixture's own
 * (oidc-provider leaves interactions to the deployment: docs/README.md, "User flows"): a password form and
 * a consent button, which a test's browser completes over HTTP.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Provider } from "oidc-provider";

export const NOTES_API = "https://notes.example/api";
export const NOTES_SCOPES = "notes:read notes:write";

export interface ProviderOptions {
  /** Where the authorization and token endpoints sit (oidc-provider's `routes`): GitHub's are under /login/oauth. */
  routes?: { authorization: string; token: string };
  /** The API its access tokens are for (RFC 8707 resource indicator) and the scopes that API knows. */
  resource?: { indicator: string; scopes: readonly string[] };
}

/** What RFC 7662 §2.2 answers about a token; `active: false` alone for one unknown, expired or revoked. */
export interface Introspection {
  active: boolean;
  scope?: string;
  aud?: string | string[];
  sub?: string;
}

export interface ProviderFixture {
  issuer: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** toolreg's client at the provider. */
  client: { clientId: string; clientSecret: string };
  /** Asks the provider about a token as the API's own client does (RFC 7662). */
  introspect(token: string): Promise<Introspection>;
  /** Whom a token speaks for, when it is active and issued for `resource`: what a vendor's API accepts. */
  subjectFor(token: string, resource: string): Promise<string | undefined>;
  /** Accounts and their passwords, as the login page checks them. */
  passwords: Map<string, string>;
  /** Revokes a token as its client may (RFC 7009): the user or the vendor took access back. */
  revoke(token: string): Promise<void>;
  /** Starts the provider, once toolreg's callback URL (its redirect URI) is known. */
  start(redirectUri: string): void;
  close(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.on("data", (chunk) => {
      text += chunk;
    });
    request.on("end", () => resolve(new URLSearchParams(text)));
    request.on("error", reject);
  });
}

function html(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  response.end(`<!doctype html><html><body>${body}</body></html>`);
}

export async function startProvider({
  routes = { authorization: "/auth", token: "/token" },
  resource = { indicator: NOTES_API, scopes: NOTES_SCOPES.split(" ") },
}: ProviderOptions = {}): Promise<ProviderFixture> {
  const client = { clientId: "toolreg", clientSecret: randomBytes(24).toString("base64url") };
  const resourceServer = { clientId: "vendor-api", clientSecret: randomBytes(24).toString("base64url") };
  const passwords = new Map([
    ["alice", "alice-password"],
    ["bob", "bob-password"],
    ["carol", "carol-password"],
  ]);
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });

  const configure = (redirectUri: string) =>
    new Provider(issuer, {
      clients: [
        {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          redirect_uris: [redirectUri],
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_post",
        },
        {
          client_id: resourceServer.clientId,
          client_secret: resourceServer.clientSecret,
          redirect_uris: [],
          grant_types: [],
          response_types: [],
          token_endpoint_auth_method: "client_secret_post",
        },
      ],
      routes,
      jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), alg: "RS256", use: "sig", kid: "test" }] },
      cookies: { keys: [randomBytes(32).toString("base64url")] },
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, AuthorizationCode: 60 },
      findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
      interactions: {
        url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
      },
      // PKCE for every client, confidential ones too (RFC 9700 §2.1.1); S256 is the only method v9 supports.
      pkce: { required: () => true },
      features: {
        devInteractions: { enabled: false },
        introspection: {
          enabled: true,
          allowedPolicy: (_ctx: unknown, caller: { clientId: string }) =>
            caller.clientId === resourceServer.clientId,
        },
        revocation: {
          enabled: true,
          allowedPolicy: (_ctx: unknown, caller: { clientId: string }, token: { clientId: string }) =>
            caller.clientId === token.clientId,
        },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource.indicator,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: resource.scopes.join(" "),
            audience: resource.indicator,
            accessTokenFormat: "opaque",
            accessTokenTTL: 3600,
          }),
        },
      },
    });

  /** The login page: a password form, as a vendor's would be. */
  const interaction = async (
    provider: Provider,
    request: IncomingMessage,
    response: ServerResponse,
    path: string[],
  ) => {
    const details = await provider.interactionDetails(request, response);
    const [, uid, action] = path;
    if (request.method === "GET") {
      if (details.prompt.name === "login") {
        return html(
          response,
          200,
          `<form method="post" action="/interaction/${escapeHtml(details.uid)}/login"><input name="login"><input name="password" type="password"><button>Sign in</button></form>`,
        );
      }
      return html(
        response,
        200,
        `<p>toolreg asks for ${escapeHtml(String(details.params.scope ?? ""))}</p><form method="post" action="/interaction/${escapeHtml(details.uid)}/confirm"><button>Allow</button></form>`,
      );
    }
    if (uid !== details.uid) return html(response, 400, "wrong interaction");
    if (action === "login") {
      const form = await formBody(request);
      const login = form.get("login") ?? "";
      if (passwords.get(login) !== form.get("password")) return html(response, 401, "wrong password");
      return provider.interactionFinished(
        request,
        response,
        { login: { accountId: login } },
        {
          mergeWithLastSubmission: false,
        },
      );
    }
    if (action === "confirm") {
      const accountId = details.session?.accountId ?? "";
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      if (!grant) return html(response, 400, "no grant");
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(resource, scopes.join(" "));
      }
      return provider.interactionFinished(
        request,
        response,
        { consent: { grantId: await grant.save() } },
        {
          mergeWithLastSubmission: true,
        },
      );
    }
    return html(response, 404, "no such interaction step");
  };

  let started: { provider: Provider; handle: ReturnType<Provider["callback"]> } | undefined;
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    if (!started) return html(response, 503, "not started");
    const path = (request.url ?? "/").split("?")[0]?.split("/").filter(Boolean) ?? [];
    if (path[0] === "interaction") {
      interaction(started.provider, request, response, path).catch((error: unknown) =>
        html(response, 500, escapeHtml(String(error))),
      );
      return;
    }
    started.handle(request, response);
  });

  const introspect = async (token: string): Promise<Introspection> => {
    const response = await fetch(`${issuer}/token/introspection`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token,
        client_id: resourceServer.clientId,
        client_secret: resourceServer.clientSecret,
      }).toString(),
    });
    if (response.status !== 200) throw new Error(`introspection answered ${response.status}`);
    return (await response.json()) as Introspection;
  };

  return {
    issuer,
    authorizeUrl: `${issuer}${routes.authorization}`,
    tokenUrl: `${issuer}${routes.token}`,
    client,
    introspect,
    async subjectFor(token, resource) {
      const found = await introspect(token);
      return found.active && [found.aud ?? []].flat().includes(resource) ? found.sub : undefined;
    },
    passwords,
    async revoke(token) {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          token,
          client_id: client.clientId,
          client_secret: client.clientSecret,
        }).toString(),
      });
      if (response.status !== 200) throw new Error(`revocation answered ${response.status}`);
    },
    start(redirectUri) {
      const provider = configure(redirectUri);
      started = { provider, handle: provider.callback() };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
