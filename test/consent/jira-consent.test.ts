/**
 * @module The Jira toolkit's two credentials, end to end over real HTTP on 127.0.0.1: toolreg's registry
 * server (SQLite, credentials sealed under a key) serving the real Jira toolkit, with Atlassian's
 * authorization server replaced by a real OAuth provider (oidc-provider 9) that issues opaque tokens for
 * Atlassian's API with Jira's classic scopes, its authorize URL keeping Atlassian's own query parameters
 * (audience, prompt). The Jira fake accepts only the tokens that provider issued (RFC 7662 introspection)
 * as Bearer, and an Atlassian account's API token as HTTP Basic. The deployment names its site by cloudId (a
 * 3LO token is accepted only at api.atlassian.com/ex/jira/{cloudId}); one naming it by siteUrl asks no one
 * for consent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JiraFake, startJiraFake } from "../../packages/tools-jira/src/fake/jira-fake.js";
import { jiraRoutes } from "../../packages/tools-jira/src/fake/jira-routes.js";
import { SITE, STORED_CREDENTIAL, seedSite } from "../../packages/tools-jira/src/fake/jira-site.js";
import { jiraToolkit } from "../../packages/tools-jira/src/toolkit.js";
import type { Envelope } from "../../src/seam/envelope.js";
import type { RegistryServer } from "../../src/server/registry-server.js";
import { createToolkitHost } from "../../src/tools/toolkit/toolkit-host.js";
import { completeConsent } from "./browser.js";
import { type ConsentServer, startConsentServer } from "./consent-server.js";
import { consentingLocally } from "./local-consent.js";
import { type ProviderFixture, startProvider } from "./oidc-provider-fixture.js";

const TENANT = "acme";
const CLOUD_ID = "11223344-a1b2-3b33-c444-def123456789";
/** The resource Atlassian's tokens are for: its API gateway (the authorize URL's `audience`). */
const ATLASSIAN_API = "https://api.atlassian.com/";

let provider: ProviderFixture;
let jira: JiraFake;
let consent: ConsentServer;
let server: RegistryServer;
let origin: string;
let toolkitHost: ReturnType<typeof createToolkitHost>;
let localJira: typeof jiraToolkit;

beforeAll(async () => {
  provider = await startProvider({
    resource: { indicator: ATLASSIAN_API, scopes: ["read:jira-work", "write:jira-work"] },
  });
  jira = await startJiraFake({
    routes: jiraRoutes(seedSite()),
    authenticate: (token) => provider.subjectFor(token, ATLASSIAN_API),
  });
  // The real toolkit, its consent at the local provider; it asks only for a cloudId, never a siteUrl.
  localJira = consentingLocally(jiraToolkit, provider);
  // Loopback is allowed for the test's own servers alone: in a deployment Jira is a public host.
  toolkitHost = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await localJira.build({ cloudId: CLOUD_ID, apiUrl: jira.url }, toolkitHost);
  consent = await startConsentServer({
    tools,
    apps: { jira: provider.client },
    tenantId: TENANT,
    principals: ["alice", "bob"],
  });
  ({ server, url: origin } = consent);
  provider.start(`${origin}/oauth/callback`);
});

afterAll(async () => {
  await consent?.close();
  await toolkitHost?.close();
  await jira?.close();
  await provider?.close();
  // Every answer the fake served passed Atlassian's OpenAPI description.
  expect(jira?.checkFailures ?? []).toEqual([]);
});

interface Parked {
  parkedCallId: string;
  problem: string;
  scopes: string[];
  consentUrl: string;
}

function parkedOf(answer: { status: number; envelope: Envelope }): Parked {
  expect(answer.status).toBe(202);
  expect(answer.envelope).toMatchObject({ ok: false, error: { code: "auth_required" } });
  return (answer.envelope.ok ? {} : answer.envelope.error.details) as unknown as Parked;
}

/** A tool call's run and call ids: the principal's run, and this call. */
const ids = (call: string) => ({ run: `run-${call.slice(0, 1)}`, call });

/** A tenant-wide API token, as an operator stores it with `toolreg credentials connect jira`. */
async function storeTenantToken(accessToken: string): Promise<void> {
  await server.deps.credentialStore?.put({
    tenantId: TENANT,
    ref: "jira",
    kind: "token",
    provider: "jira",
    secrets: { accessToken },
    connectedBy: "operator",
    at: Date.now(),
  });
}

const issueRequests = () => jira.requests.filter((request) => request.path === "/rest/api/3/issue/PROJ-1");

describe("the Jira toolkit's credentials", () => {
  it("parks an unconnected read for consent, connects at the authorization server, then sends Bearer <token>", async () => {
    const parked = parkedOf(await consent.invoke("alice", "jira_get_issue", { key: "PROJ-1" }, ids("a-1")));
    expect(parked).toMatchObject({ problem: "missing", scopes: ["read:jira-work"] });
    expect(jira.requests).toEqual([]);

    const browser = await consent.browserOf("alice");
    const page = await completeConsent(
      parked.consentUrl,
      { login: "alice", password: "alice-password" },
      browser,
    );
    const authorize = page.visited.find((step) => step.startsWith(`GET ${provider.authorizeUrl}?`));
    expect(authorize).toBeDefined();
    const asked = new URL(authorize?.slice(4) ?? "").searchParams;
    expect(asked.get("audience")).toBe("api.atlassian.com");
    expect(asked.get("prompt")).toBe("consent");
    // offline_access is asked for every time (Atlassian's refresh token), the tool's own scope beside it.
    expect(asked.get("scope")?.split(" ").sort()).toEqual(["offline_access", "read:jira-work"]);
    expect(page.text).toContain("Connected jira");
    expect(page.text).toContain("jira_get_issue ran.");

    const token = await server.deps.credentials?.resolve("jira", { tenantId: TENANT, principalId: "alice" });
    expect(token).toEqual(expect.any(String));
    expect(issueRequests()).toMatchObject([
      { method: "GET", authorization: `Bearer ${token}`, login: "alice" },
    ]);

    const resumed = await consent.resume("alice", parked.parkedCallId);
    expect(resumed).toMatchObject({
      status: 200,
      envelope: { ok: true, data: { key: "PROJ-1", summary: "Checkout fails with a 500 on Pay" } },
    });
    expect(issueRequests()).toHaveLength(1);
  });

  it("gives up a Bearer token Jira refuses (401), and parks the next call for consent again", async () => {
    const token = await server.deps.credentials?.resolve("jira", { tenantId: TENANT, principalId: "alice" });
    await provider.revoke(String(token));
    const refused = await consent.invoke("alice", "jira_get_issue", { key: "PROJ-1" }, ids("a-2"));
    expect(refused.envelope).toMatchObject({
      ok: false,
      error: { code: "auth_required", retryable: false, details: { status: 401, credentialRejected: true } },
    });
    // Jira's fake saw the revoked token once, and did not know it.
    expect(issueRequests().at(-1)?.authorization).toBe(`Bearer ${token}`);
    expect(issueRequests().at(-1)?.login).toBeUndefined();
    const before = jira.requests.length;
    const again = parkedOf(await consent.invoke("alice", "jira_get_issue", { key: "PROJ-1" }, ids("a-3")));
    expect(again.problem).toBe("revoked");
    expect(jira.requests).toHaveLength(before);
  });

  it("sends a tenant's stored email:api_token as Basic base64(email:token), with no consent asked", async () => {
    await storeTenantToken(STORED_CREDENTIAL);
    const before = issueRequests().length;
    const answer = await consent.invoke("bob", "jira_get_issue", { key: "PROJ-1" }, ids("b-1"));
    expect(answer).toMatchObject({ status: 200, envelope: { ok: true, data: { key: "PROJ-1" } } });
    const sent = issueRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.authorization).toBe(`Basic ${Buffer.from(STORED_CREDENTIAL, "utf8").toString("base64")}`);
  });

  it("gives up a stored email:token Jira refuses (401): it is revoked in the store and not sent again", async () => {
    const revoked = "ann@acme.example:ATATT-revoked";
    await storeTenantToken(revoked);
    const refused = await consent.invoke("bob", "jira_get_issue", { key: "PROJ-1" }, ids("b-2"));
    expect(refused.envelope).toMatchObject({
      ok: false,
      error: { code: "auth_required", retryable: false, details: { status: 401, credentialRejected: true } },
    });
    expect(issueRequests().at(-1)?.authorization).toBe(`Basic ${Buffer.from(revoked).toString("base64")}`);
    const stored = await server.deps.credentialStore?.get({ tenantId: TENANT, ref: "jira" });
    expect(stored).toMatchObject({ secrets: undefined, revokedAt: expect.any(Number) });
    const before = jira.requests.length;
    parkedOf(await consent.invoke("bob", "jira_get_issue", { key: "PROJ-1" }, ids("b-3")));
    expect(jira.requests).toHaveLength(before);
  });

  it("asks no one for consent where the site is named by siteUrl (3LO tokens are refused there): it fails", async () => {
    const siteTools = await localJira.build({ siteUrl: SITE, apiUrl: jira.url }, toolkitHost);
    const site = await startConsentServer({
      tools: siteTools,
      apps: { jira: provider.client },
      tenantId: "site-tenant",
      principals: ["carol"],
    });
    try {
      const before = jira.requests.length;
      const failed = await site.invoke("carol", "jira_get_issue", { key: "PROJ-1" }, ids("c-1"));
      expect(failed.envelope).toMatchObject({
        ok: false,
        error: { code: "auth_required", retryable: false },
      });
      expect(failed.envelope.ok || failed.envelope.error.details).not.toHaveProperty("consentUrl");
      expect(failed.envelope.ok || failed.envelope.error.message).toMatch(/jira/);
      expect(jira.requests).toHaveLength(before);
    } finally {
      await site.close();
    }
  });
});
