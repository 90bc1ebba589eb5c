/**
 * @module The Confluence toolkit's credentials end to end over real HTTP on 127.0.0.1: toolreg's registry
 * server (SQLite, credentials sealed under a key) serving the real Confluence toolkit, a real OAuth provider
 * (oidc-provider 9) standing in for auth.atlassian.com and issuing opaque tokens for Confluence's scopes,
 * and the Confluence fake accepting only that provider's live tokens (RFC 7662 introspection) as Bearer, or
 * the test account's email:api_token as Basic. A user's OAuth connection parks the call for consent and then
 * sends `Bearer <token>`; a tenant's stored email:token goes as `Basic base64(email:token)` with no consent.
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
import { defineToolkit } from "../../src/tools/toolkit/define-toolkit.js";
import { createToolkitHost } from "../../src/tools/toolkit/toolkit-host.js";
import { completeConsent } from "./browser.js";
import { type ConsentServer, startConsentServer } from "./consent-server.js";
import { type ProviderFixture, startProvider } from "./oidc-provider-fixture.js";

const TENANT = "acme";
/** The audience Atlassian's tokens are for: its API gateway. */
const ATLASSIAN_API = "https://api.atlassian.com/";

let provider: ProviderFixture;
let confluence: ConfluenceFake;
let consent: ConsentServer;
let server: RegistryServer;
let origin: string;
let toolkitHost: ReturnType<typeof createToolkitHost>;

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
    async authenticate(token) {
      const found = await provider.introspect(token);
      const forAtlassian = [found.aud ?? []].flat().includes(ATLASSIAN_API);
      return found.active && forAtlassian ? found.sub : undefined;
    },
  });
  // The toolkit as shipped, its consent sent to the local provider in place of auth.atlassian.com, with
  // the query Atlassian's authorize URL carries kept on it.
  const shipped = confluenceToolkit.auth;
  if (shipped.kind !== "token-or-oauth") throw new Error("the Confluence toolkit takes a token or OAuth");
  const atLocalProvider = defineToolkit({
    ...confluenceToolkit,
    auth: {
      ...shipped,
      oauth: {
        ...shipped.oauth,
        authorizeUrl: `${provider.authorizeUrl}?audience=api.atlassian.com&prompt=consent`,
        tokenUrl: provider.tokenUrl,
      },
    },
  });
  toolkitHost = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await atLocalProvider.build(
    { siteUrl: "https://acme.atlassian.net", apiUrl: confluence.url },
    toolkitHost,
  );
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
});
