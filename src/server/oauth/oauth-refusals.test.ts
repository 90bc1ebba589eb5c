import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, startFixture } from "../../../test/server/server-fixture.js";
import {
  authorizeUrl,
  consent,
  consentFields,
  consoleLogin,
  pkcePair,
} from "../../../test/support/oauth-user.js";

const REDIRECT = "http://127.0.0.1:9/callback";

let fixture: Fixture;
let aliceCookie: string;
beforeAll(async () => {
  // Each test registers its own client; the registration limit has its own test (oauth-revocation.test.ts).
  fixture = await startFixture({ oauth: { registrationsPerMinute: 1_000 } });
  aliceCookie = await consoleLogin(fixture.url, fixture.server.auth, "tenant-a", "alice");
});
afterAll(() => fixture.close());

const post = (path: string, body: URLSearchParams | string, type: string, cookie?: string) =>
  fetch(`${fixture.url}${path}`, {
    method: "POST",
    headers: { "content-type": type, ...(cookie ? { cookie } : {}) },
    body,
    redirect: "manual",
  });
const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const token = (fields: Record<string, string>) =>
  post("/oauth/token", form(fields), "application/x-www-form-urlencoded");

async function register(metadata: Record<string, unknown> = {}): Promise<Response> {
  return post(
    "/oauth/register",
    JSON.stringify({ client_name: "refusals", redirect_uris: [REDIRECT], ...metadata }),
    "application/json",
  );
}

async function registeredClient(): Promise<string> {
  const response = await register();
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

function authorizationUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): URL {
  return authorizeUrl(fixture.url, {
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    resource: `${fixture.url}/mcp`,
    state: "s-1",
    ...extra,
  });
}

/** A fresh code for alice, with the verifier it was made for. */
async function codeFor(clientId: string, extra: Record<string, string> = {}, cookie = aliceCookie) {
  const { verifier, challenge } = pkcePair();
  const redirect = await consent(authorizationUrl(clientId, challenge, extra), cookie, "allow");
  expect(redirect.searchParams.get("state")).toBe("s-1");
  return { code: redirect.searchParams.get("code")!, verifier };
}

const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
  token({
    grant_type: "authorization_code",
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    ...extra,
  });

async function expectError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(await response.json()).toMatchObject({ error, error_description: expect.any(String) });
}

describe("the token endpoint refuses", () => {
  it("a wrong PKCE verifier, and the code is spent by the attempt", async () => {
    const clientId = await registeredClient();
    const { code, verifier } = await codeFor(clientId);
    await expectError(await exchange(clientId, code, pkcePair().verifier), 400, "invalid_grant");
    await expectError(await exchange(clientId, code, verifier), 400, "invalid_grant");
  });

  it("a code used twice", async () => {
    const clientId = await registeredClient();
    const { code, verifier } = await codeFor(clientId);
    expect((await exchange(clientId, code, verifier)).status).toBe(200);
    await expectError(await exchange(clientId, code, verifier), 400, "invalid_grant");
  });

  it("a redirect_uri other than the code's", async () => {
    const clientId = await registeredClient();
    const { code, verifier } = await codeFor(clientId);
    const other = { redirect_uri: "http://127.0.0.1:9/elsewhere" };
    await expectError(await exchange(clientId, code, verifier, other), 400, "invalid_grant");
  });

  it("a resource other than this server's /mcp", async () => {
    const clientId = await registeredClient();
    const { code, verifier } = await codeFor(clientId);
    const other = { resource: "https://api.example/mcp" };
    await expectError(await exchange(clientId, code, verifier, other), 400, "invalid_target");
  });

  it("an unknown client, and another client's code", async () => {
    const clientId = await registeredClient();
    const { code, verifier } = await codeFor(clientId);
    await expectError(await exchange("0".repeat(32), code, verifier), 401, "invalid_client");
    await expectError(await exchange(await registeredClient(), code, verifier), 400, "invalid_grant");
  });

  it("an unsupported grant type, a parameter sent twice, and a body that is not a form", async () => {
    const clientId = await registeredClient();
    await expectError(
      await token({ grant_type: "password", client_id: clientId }),
      400,
      "unsupported_grant_type",
    );
    const twice = new URLSearchParams([
      ["grant_type", "refresh_token"],
      ["client_id", clientId],
      ["client_id", clientId],
    ]);
    await expectError(
      await post("/oauth/token", twice, "application/x-www-form-urlencoded"),
      400,
      "invalid_request",
    );
    await expectError(await post("/oauth/token", "{}", "application/json"), 400, "invalid_request");
  });
});

describe("the authorization endpoint", () => {
  it("shows, and never redirects, a request of an unknown client or an unregistered redirect_uri", async () => {
    const clientId = await registeredClient();
    const { challenge } = pkcePair();
    for (const url of [
      authorizationUrl("0".repeat(32), challenge),
      authorizationUrl(clientId, challenge, { redirect_uri: "http://127.0.0.1:9/callback/" }),
    ]) {
      const response = await fetch(url, { headers: { cookie: aliceCookie }, redirect: "manual" });
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("content-type")).toContain("text/html");
    }
  });

  it("sends a missing PKCE challenge or a foreign resource back to the client as an error", async () => {
    const clientId = await registeredClient();
    const { challenge } = pkcePair();
    const cases = [
      [authorizationUrl(clientId, challenge, { code_challenge_method: "plain" }), "invalid_request"],
      [authorizationUrl(clientId, challenge, { resource: "https://api.example/mcp" }), "invalid_target"],
      [authorizationUrl(clientId, challenge, { response_type: "token" }), "unsupported_response_type"],
    ] as const;
    for (const [url, error] of cases) {
      const response = await fetch(url, { headers: { cookie: aliceCookie }, redirect: "manual" });
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get("location")!);
      expect(location.origin + location.pathname).toBe(REDIRECT);
      expect(location.searchParams.get("error")).toBe(error);
      expect(location.searchParams.get("state")).toBe("s-1");
    }
  });

  it("asks a visitor without a console session to log in, and comes back to the consent after", async () => {
    const clientId = await registeredClient();
    const url = authorizationUrl(clientId, pkcePair().challenge);
    const page = await fetch(url, { redirect: "manual" });
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('action="/login"');
    const key = (await fixture.server.auth.listKeys({ tenantId: "tenant-a" })).find(
      (k) => k.principalId === "alice",
    )!;
    const login = await fetch(
      `${fixture.url}/login?token=${await fixture.server.auth.createLoginToken(key.id)}&next=${encodeURIComponent(url.pathname + url.search)}`,
      { redirect: "manual" },
    );
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe(url.pathname + url.search);
    // Anywhere but the consent is refused as a place to come back to: the console it is.
    const elsewhere = await fetch(
      `${fixture.url}/login?token=${await fixture.server.auth.createLoginToken(key.id)}&next=${encodeURIComponent("//evil.example/")}`,
      { redirect: "manual" },
    );
    expect(elsewhere.headers.get("location")).toBe("/");
  });

  it("refuses an answer without the session's CSRF token, and sends a refusal back as access_denied", async () => {
    const clientId = await registeredClient();
    const url = authorizationUrl(clientId, pkcePair().challenge);
    const page = await fetch(url, { headers: { cookie: aliceCookie } });
    const fields = consentFields(await page.text());
    fields.set("decision", "allow");
    fields.set("csrf_token", "A".repeat(43));
    const forged = await post("/oauth/authorize", fields, "application/x-www-form-urlencoded", aliceCookie);
    expect(forged.status).toBe(403);
    expect(forged.headers.get("location")).toBeNull();
    const denied = await consent(url, aliceCookie, "deny");
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("code")).toBeNull();
  });
});

describe("grants", () => {
  it("hold no scope the consenting user lacks", async () => {
    await fixture.server.auth.createKey({
      tenantId: "tenant-a",
      principalId: "carol",
      operator: true,
      scopes: ["crm.read"],
    });
    const cookie = await consoleLogin(fixture.url, fixture.server.auth, "tenant-a", "carol");
    const clientId = await registeredClient();
    const { code, verifier } = await codeFor(clientId, { scope: "crm.read crm.write" }, cookie);
    const tokens = (await (await exchange(clientId, code, verifier)).json()) as {
      access_token: string;
      scope: string;
    };
    expect(tokens.scope).toBe("crm.read");
    expect(await fixture.server.auth.verifyKey(tokens.access_token)).toMatchObject({
      tenantId: "tenant-a",
      principalId: "carol",
      scopes: ["crm.read"],
      operator: false,
    });
  });

  it("hold only what the consent page showed: none of several asked for, or no approval powers unasked", async () => {
    await fixture.server.auth.createKey({
      tenantId: "tenant-a",
      principalId: "dana",
      scopes: ["crm.read", "approvals:decide", "approvals:elicit"],
    });
    const cookie = await consoleLogin(fixture.url, fixture.server.auth, "tenant-a", "dana");
    const clientId = await registeredClient();
    const granted = async (scope: string | undefined) => {
      const { verifier, challenge } = pkcePair();
      const url = authorizationUrl(clientId, challenge, scope === undefined ? {} : { scope });
      const page = await (await fetch(url, { headers: { cookie } })).text();
      const redirect = await consent(url, cookie, "allow");
      const code = redirect.searchParams.get("code") as string;
      const tokens = (await (await exchange(clientId, code, verifier)).json()) as { access_token: string };
      const caller = await fixture.server.auth.verifyKey(tokens.access_token);
      return { page, scopes: caller?.scopes };
    };
    // Asked only for scopes dana lacks: the page says no scopes, and the grant has none.
    const lacking = await granted("openid profile");
    expect(lacking.page).toContain("with no scopes");
    expect(lacking.scopes).toEqual([]);
    // Asked for nothing: dana's scopes, but not those that decide approvals.
    const unasked = await granted(undefined);
    expect(unasked.page).toContain("the scopes crm.read,");
    expect(unasked.page).not.toContain("approvals:");
    expect(unasked.scopes).toEqual(["crm.read"]);
    // Asked for by name, shown and granted.
    const named = await granted("crm.read approvals:elicit");
    expect(named.page).toContain("the scopes crm.read, approvals:elicit,");
    expect(named.scopes).toEqual(["crm.read", "approvals:elicit"]);
  });

  it("of one tenant do not see another tenant's tools", async () => {
    const cookie = await consoleLogin(fixture.url, fixture.server.auth, "tenant-b", "bob");
    const clientId = await registeredClient();
    const toolsOf = async (cookieOf: string) => {
      const { code, verifier } = await codeFor(clientId, {}, cookieOf);
      const { access_token } = (await (await exchange(clientId, code, verifier)).json()) as {
        access_token: string;
      };
      const listed = await fixture.call("/mcp", {
        method: "POST",
        key: access_token,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      return JSON.stringify(await listed.json());
    };
    expect(await toolsOf(cookie)).toContain("read_ledger");
    expect(await toolsOf(aliceCookie)).not.toContain("read_ledger");
  });
});

describe("registration refuses", () => {
  it("plain http off loopback, a fragment, no redirect URI, and a grant type not served", async () => {
    for (const [metadata, error] of [
      [{ redirect_uris: ["http://app.example/callback"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://app.example/callback#x"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_client_metadata"],
      [{ grant_types: ["client_credentials"] }, "invalid_client_metadata"],
    ] as const) {
      await expectError(await register(metadata), 400, error);
    }
  });

  it("registers a public client whatever auth method it asked for", async () => {
    const response = await register({ token_endpoint_auth_method: "client_secret_basic" });
    expect(await response.json()).toMatchObject({
      token_endpoint_auth_method: "none",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
    });
  });
});
