/**
 * @module The Jira toolkit's two credentials, end to end over real HTTP on 127.0.0.1: toolreg's registry
 * server (SQLite, credentials sealed under a key) serving the real Jira toolkit, with Atlassian's
 * authorization server replaced by a real OAuth provider (oidc-provider 9) that issues opaque tokens for
 * Atlassian's API with Jira's classic scopes, its authorize URL keeping Atlassian's own query parameters
 * (audience, prompt). The Jira fake accepts only the tokens that provider issued (RFC 7662 introspection)
 * as Bearer, and an Atlassian account's API token as HTTP Basic.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JiraFake, startJiraFake } from "../../packages/tools-jira/src/fake/jira-fake.js";
import { jiraRoutes } from "../../packages/tools-jira/src/fake/jira-routes.js";
import { SITE, STORED_CREDENTIAL, seedSite } from "../../packages/tools-jira/src/fake/jira-site.js";
import { jiraToolkit } from "../../packages/tools-jira/src/toolkit.js";
import type { Envelope } from "../../src/seam/envelope.js";
import type { RegistryServer } from "../../src/server/registry-server.js";
import { defineToolkit } from "../../src/tools/toolkit/define-toolkit.js";
import { createToolkitHost } from "../../src/tools/toolkit/toolkit-host.js";
import { completeConsent } from "./browser.js";
import { type ConsentServer, startConsentServer } from "./consent-server.js";
import { type ProviderFixture, startProvider } from "./oidc-provider-fixture.js";

const TENANT = "acme";
/** The resource Atlassian's tokens are for: its API gateway (the authorize URL's `audience`). */
const ATLASSIAN_API = "https://api.atlassian.com/";

let provider: ProviderFixture;
let jira: JiraFake;
let consent: ConsentServer;
let server: RegistryServer;
let origin: string;
let toolkitHost: ReturnType<typeof createToolkitHost>;

beforeAll(async () => {
  provider = await startProvider({
    resource: { indicator: ATLASSIAN_API, scopes: ["read:jira-work", "write:jira-work"] },
  });
  jira = await startJiraFake({
    routes: jiraRoutes(seedSite()),
    async authenticate(token) {
      const found = await provider.introspect(token);
      const forAtlassian = [found.aud ?? []].flat().includes(ATLASSIAN_API);
      return found.active && forAtlassian ? found.sub : undefined;
    },
  });
  // The real toolkit, with Atlassian's fixed authorization server swapped for the local one: the same
  // query parameters Atlassian's authorize URL carries stay on it.
  const atlassianQuery = new URL(
    jiraToolkit.auth.kind === "token-or-oauth" ? jiraToolkit.auth.oauth.authorizeUrl : "",
  ).search;
  const localJira = defineToolkit({
    ...jiraToolkit,
    auth: {
      kind: "token-or-oauth",
      header: "authorization",
      oauth: { authorizeUrl: `${provider.authorizeUrl}${atlassianQuery}`, tokenUrl: provider.tokenUrl },
    },
  });
  // Loopback is allowed for the test's own servers alone: in a deployment Jira is a public host.
  toolkitHost = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await localJira.build({ siteUrl: SITE, apiUrl: jira.url }, toolkitHost);
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

const issueRequests = () => jira.requests.filter((request) => request.path === "/rest/api/3/issue/PROJ-1");

describe("the Jira toolkit's credentials", () => {
  it("parks an unconnected read for consent, connects at the authorization server, then sends Bearer <token>", async () => {
    const parked = parkedOf(
      await consent.invoke("alice", "jira_get_issue", { key: "PROJ-1" }, { run: "run-alice", call: "a-1" }),
    );
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
    expect(asked.get("scope")).toBe("read:jira-work");
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

  it("sends a tenant's stored email:api_token as Basic base64(email:token), with no consent asked", async () => {
    await server.deps.credentialStore?.put({
      tenantId: TENANT,
      ref: "jira",
      kind: "token",
      provider: "jira",
      secrets: { accessToken: STORED_CREDENTIAL },
      connectedBy: "operator",
      at: Date.now(),
    });
    const before = issueRequests().length;
    const answer = await consent.invoke(
      "bob",
      "jira_get_issue",
      { key: "PROJ-1" },
      { run: "run-bob", call: "b-1" },
    );
    expect(answer).toMatchObject({ status: 200, envelope: { ok: true, data: { key: "PROJ-1" } } });
    const sent = issueRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.authorization).toBe(`Basic ${Buffer.from(STORED_CREDENTIAL, "utf8").toString("base64")}`);
  });
});
