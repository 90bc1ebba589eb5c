/**
 * @module The Confluence toolkit's credentials end to end over real HTTP on 127.0.0.1: toolreg's registry
 * server (SQLite, credentials sealed under a key) serving the real Confluence toolkit, a real OAuth provider
 * (oidc-provider 9) standing in for auth.atlassian.com and issuing opaque tokens for Confluence's scopes,
 * and the Confluence fake accepting only that provider's live tokens (RFC 7662 introspection) as Bearer, or
 * the test account's email:api_token as Basic. A user's OAuth connection parks the call for consent and then
 * sends `Bearer <token>`; a token Confluence refuses (401) is given up and consent asked again; a tenant's
 * stored email:token goes as `Basic base64(email:token)` with no consent. The deployment names its site by
 * cloudId (a 3LO token is accepted only at api.atlassian.com/ex/confluence/{cloudId}); one naming it by
 * siteUrl asks no one for consent and fails without a stored email:token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConfluenceFake,
  startConfluenceFake,
  TEST_BASIC,
} from "../../packages/tools-confluence/src/fake/confluence-fake.js";
import { RUNBOOK_ID } from "../../packages/tools-confluence/src/fake/confluence-site.js";
import { confluenceToolkit } from "../../packages/tools-confluence/src/toolkit.js";
import type { Envelope } from "../../src/seam/envelope.js";
import type { RegistryServer } from "../../src/server/registry-server.js";
import { createToolkitHost } from "../../src/tools/toolkit/toolkit-host.js";
import { completeConsent } from "./browser.js";
import { type ConsentServer, startConsentServer } from "./consent-server.js";
import { consentingLocally } from "./local-consent.js";
import { type ProviderFixture, startProvider } from "./oidc-provider-fixture.js";

const TENANT = "acme";
/** The audience Atlassian's tokens are for: its API gateway. */
const ATLASSIAN_API = "https://api.atlassian.com/";
const CLOUD_ID = "11223344-a1b2-3c4d-5e6f-123456789abc";

let provider: ProviderFixture;
let confluence: ConfluenceFake;
let consent: ConsentServer;
let server: RegistryServer;
let origin: string;
let toolkitHost: ReturnType<typeof createToolkitHost>;
let localConfluence: typeof confluenceToolkit;

beforeAll(async () => {
  provider = await startProvider({
    routes: { authorization: "/authorize", token: "/oauth/token" },
    resource: {
      indicator: ATLASSIAN_API,
      scopes: [
        "read:page:confluence",
        "write:page:confluence",
        "read:space:confluence",
        "write:comment:confluence",
        "search:confluence",
      ],
    },
  });
  confluence = await startConfluenceFake({
    authenticate: (token) => provider.subjectFor(token, ATLASSIAN_API),
  });
  // The toolkit as shipped, its consent at the local provider; it asks only for a cloudId, never a siteUrl.
  localConfluence = consentingLocally(confluenceToolkit, provider);
  toolkitHost = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await localConfluence.build({ cloudId: CLOUD_ID, apiUrl: confluence.url }, toolkitHost);
  consent = await startConsentServer({
    tools,
    apps: { confluence: provider.client },
    tenantId: TENANT,
    principals: ["alice", "bob"],
  });
  ({ server, url: origin } = consent);
  provider.start(`${origin}/oauth/callback`);
});

afterAll(async () => {
  await consent?.close();
  await toolkitHost?.close();
  await confluence?.close();
  await provider?.close();
});

function envelopeOf(answer: { status: number; envelope: Envelope }) {
  return answer.envelope;
}

const pageRequests = () =>
  confluence.requests.filter((request) => request.path === `/wiki/api/v2/pages/${RUNBOOK_ID}`);

describe("Confluence's credentials: an OAuth 2.0 (3LO) connection, or a tenant's email:api_token", () => {
  it("parks an unconnected read for consent, connects at the provider, then sends Bearer <token>", async () => {
    const parkedAnswer = await consent.invoke(
      "alice",
      "confluence_get_page",
      { pageId: RUNBOOK_ID },
      { run: "run-alice", call: "c-1" },
    );
    expect(parkedAnswer.status).toBe(202);
    const parked = envelopeOf(parkedAnswer);
    expect(parked).toMatchObject({ ok: false, error: { code: "auth_required" } });
    const details = (parked.ok ? {} : parked.error.details) as {
      parkedCallId: string;
      consentUrl: string;
      scopes: string[];
      problem: string;
    };
    expect(details).toMatchObject({ problem: "missing", scopes: ["read:page:confluence"] });
    expect(confluence.requests).toEqual([]);

    const browser = await consent.browserOf("alice");
    const page = await completeConsent(
      details.consentUrl,
      { login: "alice", password: "alice-password" },
      browser,
    );
    // The authorize request kept Atlassian's audience and prompt, beside the flow's own parameters.
    const authorize = page.visited.find((step) => step.startsWith(`GET ${provider.authorizeUrl}?`));
    expect(authorize).toBeDefined();
    const asked = new URL(authorize?.slice(4) ?? "").searchParams;
    expect(asked.get("audience")).toBe("api.atlassian.com");
    expect(asked.get("prompt")).toBe("consent");
    // offline_access is asked for every time (Atlassian's refresh token), the tool's own scope beside it.
    expect(asked.get("scope")?.split(" ").sort()).toEqual(["offline_access", "read:page:confluence"]);
    expect(page.text).toContain("confluence_get_page ran.");

    const token =
      (await server.deps.credentials?.resolve("confluence", { tenantId: TENANT, principalId: "alice" })) ??
      "";
    expect(token).not.toBe("");
    expect(pageRequests()).toMatchObject([{ method: "GET", headers: { authorization: `Bearer ${token}` } }]);

    const resumed = await consent.resume("alice", details.parkedCallId);
    expect(resumed).toMatchObject({
      status: 200,
      envelope: { ok: true, data: { id: RUNBOOK_ID, version: 7 } },
    });
    expect(pageRequests()).toHaveLength(1);
  });

  it("gives up a Bearer token Confluence refuses (401), and parks the next call for consent again", async () => {
    const token = await server.deps.credentials?.resolve("confluence", {
      tenantId: TENANT,
      principalId: "alice",
    });
    await provider.revoke(String(token));
    const refused = await consent.invoke(
      "alice",
      "confluence_get_page",
      { pageId: RUNBOOK_ID },
      { run: "run-alice", call: "c-2" },
    );
    expect(refused.envelope).toMatchObject({
      ok: false,
      error: { code: "auth_required", retryable: false, details: { status: 401, credentialRejected: true } },
    });
    expect(pageRequests().at(-1)?.headers.authorization).toBe(`Bearer ${token}`);
    const before = confluence.requests.length;
    const again = await consent.invoke(
      "alice",
      "confluence_get_page",
      { pageId: RUNBOOK_ID },
      { run: "run-alice", call: "c-3" },
    );
    expect(again.status).toBe(202);
    expect(again.envelope).toMatchObject({ ok: false, error: { code: "auth_required" } });
    expect(again.envelope.ok || again.envelope.error.details).toHaveProperty("consentUrl");
    expect(confluence.requests).toHaveLength(before);
  });

  it("sends a tenant's stored email:api_token as Basic, with no consent asked", async () => {
    await server.deps.credentialStore?.put({
      tenantId: TENANT,
      ref: "confluence",
      kind: "token",
      provider: "confluence",
      secrets: { accessToken: TEST_BASIC },
      connectedBy: "operator",
      at: Date.now(),
    });
    const before = pageRequests().length;
    const answer = await consent.invoke(
      "bob",
      "confluence_get_page",
      { pageId: RUNBOOK_ID },
      { run: "run-bob", call: "b-1" },
    );
    expect(answer).toMatchObject({
      status: 200,
      envelope: { ok: true, data: { id: RUNBOOK_ID, title: "Deploy runbook" } },
    });
    const sent = pageRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(TEST_BASIC, "utf8").toString("base64")}`,
    );
  });

  it("asks no one for consent where the site is named by siteUrl (3LO tokens are refused there): it fails", async () => {
    const siteTools = await localConfluence.build(
      { siteUrl: "https://acme.atlassian.net", apiUrl: confluence.url },
      toolkitHost,
    );
    const site = await startConsentServer({
      tools: siteTools,
      apps: { confluence: provider.client },
      tenantId: "site-tenant",
      principals: ["carol"],
    });
    try {
      const before = confluence.requests.length;
      const failed = await site.invoke(
        "carol",
        "confluence_get_page",
        { pageId: RUNBOOK_ID },
        { run: "run-carol", call: "s-1" },
      );
      expect(failed.envelope).toMatchObject({
        ok: false,
        error: { code: "auth_required", retryable: false },
      });
      expect(failed.envelope.ok || failed.envelope.error.details).not.toHaveProperty("consentUrl");
      expect(confluence.requests).toHaveLength(before);
    } finally {
      await site.close();
    }
  });
});
