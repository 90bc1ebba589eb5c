/**
 * @module How a grant ends, over real HTTP against a real server on 127.0.0.1: token revocation (RFC 7009)
 * with the access token or the refresh token, a rotated refresh token presented again (OAuth 2.1 §4.3.1),
 * what revocation answers for tokens that are not a grant's; and the registration limit per address.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, startFixture } from "../../../test/server/server-fixture.js";
import { authorizeUrl, consent, consoleLogin, pkcePair } from "../../../test/support/oauth-user.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
});

let fixture: Fixture;
let cookie: string;
beforeAll(async () => {
  fixture = await startFixture({ oauth: { registrationsPerMinute: 3 } });
  cookie = await consoleLogin(fixture.url, fixture.server.auth, "tenant-a", "alice");
});
afterAll(() => fixture.close());

const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${fixture.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });
const register = (headers: Record<string, string> = {}) =>
  fetch(`${fixture.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ client_name: "revocation", redirect_uris: [REDIRECT] }),
  });
const mcpStatus = async (token: string) =>
  (await fixture.call("/mcp", { method: "POST", body: INITIALIZE, key: token, headers: jsonHeaders })).status;
const jsonHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };

interface Tokens {
  access_token: string;
  refresh_token: string;
}

/** One client (registered once: the limit here is 3 a minute) and a way to get alice's grants for it. */
let clientId: string | undefined;
async function grant(): Promise<Tokens> {
  if (clientId === undefined) {
    const registered = await register();
    expect(registered.status).toBe(201);
    clientId = ((await registered.json()) as { client_id: string }).client_id;
  }
  const { verifier, challenge } = pkcePair();
  const url = authorizeUrl(fixture.url, {
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
  });
  const redirect = await consent(url, cookie, "allow");
  const exchanged = await form("/oauth/token", {
    grant_type: "authorization_code",
    client_id: clientId,
    code: redirect.searchParams.get("code")!,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
  });
  expect(exchanged.status).toBe(200);
  return (await exchanged.json()) as Tokens;
}

const refresh = (tokens: Tokens) =>
  form("/oauth/token", {
    grant_type: "refresh_token",
    refresh_token: tokens.refresh_token,
    client_id: clientId!,
  });

const keyIdOf = (token: string) => token.split("_")[1]!;
const revokedAt = async (token: string) =>
  (await fixture.server.auth.listKeys({ tenantId: "tenant-a" })).find((key) => key.id === keyIdOf(token))
    ?.revokedAt;

describe("ending a grant", () => {
  it("advertises the revocation endpoint", async () => {
    const metadata = await (await fetch(`${fixture.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      revocation_endpoint: `${fixture.url}/oauth/revoke`,
      revocation_endpoint_auth_methods_supported: ["none"],
      // This server was given no egress client to fetch them with.
      client_id_metadata_document_supported: false,
    });
  });

  it("revoking the access token ends the grant: the key is revoked and the refresh token stops", async () => {
    const tokens = await grant();
    expect(await mcpStatus(tokens.access_token)).toBe(200);
    const answer = await form("/oauth/revoke", {
      token: tokens.access_token,
      token_type_hint: "access_token",
      client_id: clientId!,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await revokedAt(tokens.access_token)).toEqual(expect.any(Number));
    // At once, though the key cache had just verified it.
    expect(await mcpStatus(tokens.access_token)).toBe(401);
    expect(await (await refresh(tokens)).json()).toMatchObject({ error: "invalid_grant" });
    // Revoking it again is answered as the first time.
    expect((await form("/oauth/revoke", { token: tokens.access_token })).status).toBe(200);
  });

  it("revoking the refresh token ends the grant: its access token is refused at once", async () => {
    const tokens = await grant();
    expect(await mcpStatus(tokens.access_token)).toBe(200);
    const answer = await form("/oauth/revoke", {
      token: tokens.refresh_token,
      token_type_hint: "refresh_token",
      client_id: clientId!,
    });
    expect(answer.status).toBe(200);
    expect(await mcpStatus(tokens.access_token)).toBe(401);
    expect(await revokedAt(tokens.access_token)).toEqual(expect.any(Number));
  });

  it("answers 200 for an unknown token, and refuses to revoke an API key that is no grant", async () => {
    expect((await form("/oauth/revoke", { token: randomBytes(32).toString("base64url") })).status).toBe(200);
    expect((await form("/oauth/revoke", { token: "trk_not_a_key" })).status).toBe(200);
    const plain = await form("/oauth/revoke", { token: fixture.keys.agentA });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ error: "unsupported_token_type" });
    expect(await mcpStatus(fixture.keys.agentA)).toBe(200);
    const missing = await form("/oauth/revoke", { client_id: "x" });
    expect(await missing.json()).toMatchObject({ error: "invalid_request" });
  });

  it("a rotated refresh token presented again ends the whole grant", async () => {
    const first = await grant();
    const rotated = await refresh(first);
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as Tokens;
    expect(await mcpStatus(second.access_token)).toBe(200);

    const reused = await refresh(first);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringContaining("already used"),
    });
    // Both holders lose it: the newest access token and the newest refresh token stop too.
    expect(await mcpStatus(second.access_token)).toBe(401);
    expect(await (await refresh(second)).json()).toMatchObject({ error: "invalid_grant" });
    expect(await revokedAt(second.access_token)).toEqual(expect.any(Number));
  });

  it("a rotated refresh token sent to the revocation endpoint ends the grant as well", async () => {
    const first = await grant();
    const second = (await (await refresh(first)).json()) as Tokens;
    expect((await form("/oauth/revoke", { token: first.refresh_token })).status).toBe(200);
    expect(await mcpStatus(second.access_token)).toBe(401);
  });
});

describe("registration", () => {
  it("lets one address register a few clients a minute, then answers 429 with Retry-After", async () => {
    // One of the three went to the grants above (the tests of this file share the server).
    const answers = [];
    for (let attempt = 0; attempt < 3; attempt++) answers.push(await register());
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 429]);
    const refused = answers[2]!;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: "temporarily_unavailable" });
    // Without trusted proxies, a forwarded address written by the client changes nothing.
    expect((await register({ "x-forwarded-for": "203.0.113.9" })).status).toBe(429);
  });

  it("keeps only so many clients no user consented to, for a while; a consented one stays", async () => {
    const bounded = await startFixture({ oauth: { maxUnusedClients: 2, unusedClientTtlMs: 400 } });
    try {
      const registerAt = async () => {
        const response = await fetch(`${bounded.url}/oauth/register`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ redirect_uris: [REDIRECT] }),
        });
        return {
          status: response.status,
          body: (await response.json()) as { client_id?: string; error?: string },
        };
      };
      const first = await registerAt();
      expect((await registerAt()).status).toBe(201);
      const full = await registerAt();
      expect(full).toMatchObject({ status: 503, body: { error: "temporarily_unavailable" } });
      // A user consents to the first: it is used, and no longer counts.
      const boundedCookie = await consoleLogin(bounded.url, bounded.server.auth, "tenant-a", "alice");
      const url = authorizeUrl(bounded.url, {
        client_id: first.body.client_id!,
        redirect_uri: REDIRECT,
        code_challenge: pkcePair().challenge,
      });
      await consent(url, boundedCookie, "allow");
      expect((await registerAt()).status).toBe(201);
      expect((await registerAt()).status).toBe(503);
      // Once the unused ones are old enough they are dropped; the consented one is still there.
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect((await registerAt()).status).toBe(201);
      expect(await bounded.server.auth.client(first.body.client_id!)).toBeDefined();
    } finally {
      await bounded.close();
    }
  });
});
