import { createPublicKey, generateKeyPairSync } from "node:crypto";
import type { Envelope } from "toolreg";
import { createTestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appJwtExchange, githubAppExchange, REFRESH_BEFORE_EXPIRY_MS } from "./app-auth.js";
import { type FakeGithubApp, fakeGithubApp } from "./fake/app-routes.js";
import { type GithubFake, startGithubFake } from "./fake/github-fake.js";
import { issueRoutesOver } from "./fake/issues-routes.js";
import { seedIssueStore } from "./fake/issues-store.js";
import { checkAgainstOpenApi } from "./fake/openapi-check.js";
import { githubToolkit } from "./toolkit.js";

const APP_ID = 4242;
const INSTALLATION_ID = 77;
const KEY_REF = "env:GITHUB_APP_PRIVATE_KEY";
const MINT_PATH = `/app/installations/${INSTALLATION_ID}/access_tokens`;

// GitHub hands an App's key out as PKCS#1 PEM ("BEGIN RSA PRIVATE KEY").
const pair = () =>
  generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
const { privateKey: APP_KEY, publicKey: APP_PUBLIC_KEY } = pair();
const { privateKey: OTHER_KEY } = pair();
/** A line from the middle of the key: what would show if any part of it leaked. */
const KEY_LINE = APP_KEY.split("\n")[5] ?? "";

let app: FakeGithubApp;
let fake: GithubFake;
beforeAll(async () => {
  app = fakeGithubApp({
    appId: APP_ID,
    publicKey: createPublicKey(APP_PUBLIC_KEY),
    installationIds: [INSTALLATION_ID],
  });
  fake = await startGithubFake({
    routes: [app.routes, issueRoutesOver(seedIssueStore())],
    check: checkAgainstOpenApi,
    authenticate: app.authenticate,
  });
});
afterAll(async () => {
  await fake.close();
  expect(fake.checkFailures).toEqual([]);
});

/** The toolkit built afresh (an empty token cache) as an App installation, behind a real seam. */
async function appToolkit(
  appConfig: Partial<{ installationId: number; appId: number }> = {},
  key: () => Promise<string> = async () => APP_KEY,
) {
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await githubToolkit.build(
    {
      baseUrl: fake.url,
      app: { appId: APP_ID, installationId: INSTALLATION_ID, privateKeyRef: KEY_REF, ...appConfig },
    },
    host,
  );
  const harness = createTestHarness(tools, { clock: Date.now });
  const credentials = {
    resolve: (ref: string) => (ref === KEY_REF ? key() : Promise.reject(new Error(`no ${ref}`))),
  };
  const getIssue = (issue = 7): Promise<Envelope> =>
    harness.seam.call(harness.context({ credentials }), "github_get_issue", {
      owner: "octocat",
      repo: "hello-world",
      issue_number: issue,
    });
  return { tools, getIssue, close: () => host.close() };
}

const mints = () => fake.requests.filter((request) => request.path === MINT_PATH);
const apiRequests = () => fake.requests.filter((request) => request.path !== MINT_PATH);

/** Nothing secret in what a model sees: neither the key nor any token minted. */
function expectNoSecrets(envelopes: readonly Envelope[]) {
  const seen = JSON.stringify(envelopes);
  expect(seen).not.toContain(KEY_LINE);
  expect(seen).not.toContain("PRIVATE KEY");
  for (const token of app.minted) expect(seen).not.toContain(token);
}

describe("the GitHub toolkit as an App installation", () => {
  it("mints an installation token from the key once, and reuses it for the next call", async () => {
    const before = { mints: mints().length, api: apiRequests().length };
    const kit = await appToolkit();
    const first = await kit.getIssue(7);
    const second = await kit.getIssue(2);
    expect(first).toMatchObject({ ok: true, data: { number: 7 } });
    expect(second).toMatchObject({ ok: true, data: { number: 2 } });
    expect(mints().length - before.mints).toBe(1);
    const token = app.minted.at(-1);
    const [mint] = mints().slice(before.mints);
    // The mint carries the App's JWT and no other credential; the API calls carry the token it gave.
    expect(mint?.method).toBe("POST");
    expect(mint?.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(mint?.headers.authorization).not.toContain(String(token));
    expect(mint?.headers.cookie).toBeUndefined();
    const calls = apiRequests().slice(before.api);
    expect(calls.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${token}`,
      `Bearer ${token}`,
    ]);
    expect(calls.map((request) => request.login)).toEqual([app.login, app.login]);
    expectNoSecrets([first, second]);
    await kit.close();
  });

  it("shares one mint among concurrent first calls", async () => {
    const before = mints().length;
    const kit = await appToolkit();
    const results = await Promise.all([kit.getIssue(7), kit.getIssue(2), kit.getIssue(7), kit.getIssue(2)]);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(mints().length - before).toBe(1);
    await kit.close();
  });

  it("mints again once the cached token is within minutes of its expiry", async () => {
    const before = mints().length;
    // A token that lives less than the refresh margin is stale as soon as it is cached.
    app.tokenLifetimeMs = REFRESH_BEFORE_EXPIRY_MS - 60_000;
    try {
      const kit = await appToolkit();
      expect((await kit.getIssue(7)).ok).toBe(true);
      expect((await kit.getIssue(7)).ok).toBe(true);
      expect(mints().length - before).toBe(2);
      await kit.close();
    } finally {
      app.tokenLifetimeMs = 60 * 60_000;
    }
  });

  it("drops a token GitHub refuses (401), so the next call mints a new one; the key is kept", async () => {
    const kit = await appToolkit();
    expect((await kit.getIssue(7)).ok).toBe(true);
    const refused = app.minted.at(-1) ?? "";
    app.revoke(refused);
    const failed = await kit.getIssue(7);
    expect(failed).toMatchObject({ ok: false, error: { details: { status: 401 } } });
    const before = mints().length;
    const again = await kit.getIssue(7);
    expect(again).toMatchObject({ ok: true, data: { number: 7 } });
    expect(mints().length - before).toBe(1);
    expect(apiRequests().at(-1)?.headers.authorization).toBe(`Bearer ${app.minted.at(-1)}`);
    expect(app.minted.at(-1)).not.toBe(refused);
    expectNoSecrets([failed, again]);
    await kit.close();
  });

  it("fails a call whose key is not a key with auth_required naming app.privateKeyRef, never the key", async () => {
    const before = fake.requests.length;
    const kit = await appToolkit({}, async () => `not-a-key ${KEY_LINE}`);
    const result = await kit.getIssue(7);
    expect(result).toMatchObject({ ok: false, error: { code: "auth_required", retryable: false } });
    if (result.ok) throw new Error("unreachable");
    expect(result.error.message).toContain(`app.privateKeyRef "${KEY_REF}"`);
    expect(JSON.stringify(result)).not.toContain(KEY_LINE);
    // Nothing was sent: not the mint, not the call.
    expect(fake.requests.length).toBe(before);
    await kit.close();
  });

  it("fails with GitHub's refusal when the key is another App's, naming what to check", async () => {
    const kit = await appToolkit({}, async () => OTHER_KEY);
    const result = await kit.getIssue(7);
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "auth_required",
        message: expect.stringMatching(
          /\(401\) \(A JSON web token could not be decoded\).*app\.privateKeyRef/,
        ),
      },
    });
    expect(JSON.stringify(result)).not.toContain(OTHER_KEY.split("\n")[5]);
    await kit.close();
  });

  it("names app.installationId when GitHub knows no such installation (404)", async () => {
    const kit = await appToolkit({ installationId: 9999 });
    const result = await kit.getIssue(7);
    expect(result).toMatchObject({
      ok: false,
      error: { code: "auth_required", message: expect.stringContaining("app.installationId 9999") },
    });
    await kit.close();
  });

  it("says what to configure when the key cannot be resolved, with no consent to ask for", async () => {
    const kit = await appToolkit({}, () => Promise.reject(new Error("unset")));
    const result = await kit.getIssue(7);
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "auth_required",
        message: expect.stringContaining(`toolreg credentials connect ${KEY_REF}`),
      },
    });
    if (result.ok) throw new Error("unreachable");
    expect(result.error.message).not.toMatch(/asked to connect/);
    await kit.close();
  });
});

describe("githubAppExchange's cache", () => {
  it("keeps a token per tenant and key until shortly before it expires", async () => {
    let now = Date.now();
    const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
    const app = { appId: APP_ID, installationId: INSTALLATION_ID, privateKeyRef: KEY_REF };
    const mintEgress = host.egress({
      hosts: ["127.0.0.1"],
      credential: {
        header: "authorization",
        scheme: "Bearer",
        credentialRef: KEY_REF,
        exchange: appJwtExchange(app),
      },
    });
    const exchange = githubAppExchange({ app, baseUrl: fake.url, mintEgress, now: () => now });
    const tenant = { tenantId: "acme", principalId: "ann" };
    const before = mints().length;
    const first = await exchange.mint(APP_KEY, tenant);
    expect(await exchange.mint(APP_KEY, { tenantId: "acme", principalId: "bob" })).toBe(first);
    expect(mints().length - before).toBe(1);
    // Another tenant, and a rotated key, each mint their own.
    expect(await exchange.mint(APP_KEY, { tenantId: "other", principalId: "ann" })).not.toBe(first);
    // The same key written on one line, as an env file holds it, is the same key.
    expect(await exchange.mint(APP_KEY.replaceAll("\n", "\\n"), tenant)).toBe(first);
    // A rotated key is not served the old key's token: it mints (and this one is not the App's, so GitHub refuses).
    await expect(exchange.mint(OTHER_KEY, tenant)).rejects.toMatchObject({ envelopeCode: "auth_required" });
    now += 60 * 60_000 - REFRESH_BEFORE_EXPIRY_MS + 1_000;
    const refreshed = await exchange.mint(APP_KEY, tenant);
    expect(refreshed).not.toBe(first);
    expect(mints().length - before).toBe(4);
    exchange.forget?.(tenant);
    expect(await exchange.mint(APP_KEY, tenant)).not.toBe(refreshed);
    await host.close();
  });
});
