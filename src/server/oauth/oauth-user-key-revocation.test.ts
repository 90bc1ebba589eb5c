import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, startFixture } from "../../../test/server/server-fixture.js";
import { authorizeUrl, consent, consoleLogin, pkcePair } from "../../../test/support/oauth-user.js";
import type { CliIo } from "../../cli/cli-io.js";
import { revokeKeyCommand } from "../../cli/commands/keys.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const TENANT = "tenant-a";

let fixture: Fixture;
let clientId: string;
beforeAll(async () => {
  fixture = await startFixture();
  const registered = await fetch(`${fixture.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "user key revocation", redirect_uris: [REDIRECT] }),
  });
  expect(registered.status).toBe(201);
  clientId = ((await registered.json()) as { client_id: string }).client_id;
});
afterAll(() => fixture.close());

const quietIo: CliIo = { stdout() {}, stderr() {}, cwd: process.cwd(), env: {} };

const tokenRequest = (fields: Record<string, string>) =>
  fetch(`${fixture.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: clientId, ...fields }),
  });

interface Tokens {
  access_token: string;
  refresh_token: string;
}

/** A new user key K for `principalId`, and a grant that user consented to while signed in with K. */
async function userGrant(principalId: string): Promise<{ userKeyId: string; tokens: Tokens }> {
  const { record } = await fixture.server.auth.createKey({ tenantId: TENANT, principalId });
  const cookie = await consoleLogin(fixture.url, fixture.server.auth, TENANT, principalId);
  const { verifier, challenge } = pkcePair();
  const url = authorizeUrl(fixture.url, {
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
  });
  const redirect = await consent(url, cookie, "allow");
  const exchanged = await tokenRequest({
    grant_type: "authorization_code",
    code: redirect.searchParams.get("code")!,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
  });
  expect(exchanged.status).toBe(200);
  return { userKeyId: record.id, tokens: (await exchanged.json()) as Tokens };
}

const refresh = (tokens: Tokens) =>
  tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });

const revokedAt = async (token: string) =>
  (await fixture.server.auth.listKeys({ tenantId: TENANT })).find((key) => key.id === token.split("_")[1])
    ?.revokedAt;

describe("a grant and the key its user consented with", () => {
  it("refreshes while the user's key is live", async () => {
    const { tokens } = await userGrant("dana");
    const first = await refresh(tokens);
    expect(first.status).toBe(200);
    const renewed = (await first.json()) as Tokens;
    expect((await refresh(renewed)).status).toBe(200);
    expect(await revokedAt(renewed.access_token)).toBeUndefined();
  });

  it("refreshes a grant made before the user's key was kept with it", async () => {
    const { record } = await fixture.server.auth.createKey({
      tenantId: TENANT,
      principalId: "erin",
      label: "oauth: old client",
      expiresAt: Date.now() + 60_000,
    });
    const oldPayload = { clientId, resource: `${fixture.url}/mcp`, scopes: [] };
    const refreshToken = await fixture.server.auth.createGrantToken({
      kind: "refresh",
      keyId: record.id,
      payload: JSON.stringify(oldPayload),
      ttlMs: 60_000,
    });
    expect((await tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken })).status).toBe(
      200,
    );
  });

  it("ends at the next refresh once `toolreg keys revoke` revoked the user's key", async () => {
    const { userKeyId, tokens } = await userGrant("carol");
    expect(await revokeKeyCommand(fixture.server.auth, userKeyId, quietIo)).toBe(0);
    const answer = await refresh(tokens);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringContaining("user's API key"),
    });
    expect(await revokedAt(tokens.access_token)).toEqual(expect.any(Number));
  });
});
