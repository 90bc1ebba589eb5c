/**
 * @module Importing an MCP server that speaks only OAuth, end to end over real HTTP on 127.0.0.1: toolreg's
 * registry server (SQLite, credentials sealed under a key) imports the server with the SDK's client auth;
 * its user consents through toolreg's start link and callback, as for a vendor toolkit; the tokens land
 * sealed; expiry is refreshed, a missing scope is stepped up, and answers from elsewhere are refused.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEgressClient } from "../../src/egress/egress-client.js";
import { type McpImport, type McpImportEvent, mcpServer } from "../../src/mcp/import/mcp-server.js";
import { syncRegistry } from "../../src/mcp/import/sync-registry.js";
import type { DeploymentStores } from "../../src/ports/deployment-stores.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import type { Envelope } from "../../src/seam/envelope.js";
import { type Listening, listen } from "../../src/server/listen.js";
import { openRegistryServer, type RegistryServer } from "../../src/server/registry-server.js";
import { openSqliteDeployment } from "../../src/stores/sqlite/index.js";
import { until } from "../support/until.js";
import { type CookieJars, completeConsent, signedIn } from "./browser.js";
import { type OAuthMcpServer, startOAuthMcpServer } from "./oauth-mcp-server.js";

const TENANT = "acme";

let upstream: OAuthMcpServer;
let directory: string;
let stores: DeploymentStores;
let server: RegistryServer;
let listening: Listening;
let imported: McpImport;
let aliceKey: string;
let alice: CookieJars;
const registry = new ToolRegistry([]);
const events: McpImportEvent[] = [];
const transport = createEgressClient({ policy: { allowAddressClasses: ["loopback"] } });

beforeAll(async () => {
  upstream = await startOAuthMcpServer();
  directory = mkdtempSync(join(tmpdir(), "toolreg-mcp-oauth-"));
  stores = openSqliteDeployment(join(directory, "toolreg.db"), { credentialsKey: randomBytes(32) });
  let origin = "";
  server = openRegistryServer({
    registry,
    store: stores,
    logger: silentLogger,
    credentials: {
      key: randomBytes(32),
      publicUrl: () => origin,
      transport,
      exchanges: (provider) => (provider === `mcp:${imported?.name}` ? imported.consentExchange : undefined),
    },
  });
  listening = await listen(server, { port: 0, host: "127.0.0.1" });
  origin = listening.url;
  const sealed = stores.sealed;
  if (!sealed) throw new Error("the stores were opened without their key");
  imported = await mcpServer({
    name: "notes",
    // Loopback is allowed for the test's own server alone: in a deployment the MCP server is a public host.
    transport: {
      kind: "http",
      url: upstream.url,
      egress: { allowAddressClasses: ["loopback"] },
      oauth: { tenantId: TENANT, principalId: "alice" },
    },
    oauthHost: {
      credentials: sealed.credentials,
      consents: sealed.consents,
      redirectUri: () => `${origin}/oauth/callback`,
      consentLink: (id) => `${origin}/oauth/start/${id}`,
    },
    // Runs without approval, so the test reaches the scope check at once.
    effects: { write_note: "internal-write" },
    onEvent: (event) => events.push(event),
  });
  syncRegistry(registry, imported);
  const created = await server.auth.createKey({ tenantId: TENANT, principalId: "alice", label: "test" });
  aliceKey = created.key;
  alice = await signedIn(origin, await server.auth.createLoginToken(created.record.id));
});

afterAll(async () => {
  await imported?.close();
  await listening?.stop(1_000);
  await server?.close();
  await transport.close();
  await upstream?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

async function invoke(
  tool: string,
  input: unknown,
  call: string,
): Promise<{ status: number; envelope: Envelope }> {
  const response = await fetch(`${listening.url}/api/v1/tools/${tool}/invoke`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${aliceKey}`,
      "content-type": "application/json",
      "x-toolreg-run-id": "run-1",
      "x-toolreg-tool-call-id": call,
    },
    body: JSON.stringify(input),
  });
  return { status: response.status, envelope: (await response.json()) as Envelope };
}

const consentLinks = () =>
  events.flatMap((event) => (event.type === "mcp.authorization_required" ? [event.consentUrl] : []));

describe("importing an MCP server that speaks OAuth", () => {
  it("asks its user for consent through toolreg's start link, then serves its tools with the bearer", async () => {
    // The first connection met a 401: discovery, registration and a consent, and no tools yet.
    expect(imported.tools()).toEqual([]);
    const [link] = consentLinks();
    expect(link).toMatch(new RegExp(`^${listening.url}/oauth/start/`));
    const authorize = upstream.authorizeRequests;
    expect(authorize).toEqual([]);

    const page = await completeConsent(link ?? "", { login: "", password: "" }, alice);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Connected mcp:notes");
    const sent = upstream.authorizeRequests[0];
    expect(sent?.get("code_challenge_method")).toBe("S256");
    expect(sent?.get("resource")).toBe(upstream.url);
    expect(sent?.get("scope")).toBe("notes:read");
    expect(sent?.get("redirect_uri")).toBe(`${listening.url}/oauth/callback`);
    // The code went with its verifier and the client's secret; the resource indicator too.
    expect(upstream.tokenRequests[0]).toMatchObject({
      grant_type: "authorization_code",
      resource: upstream.url,
    });
    expect(upstream.tokenRequests[0]?.code_verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);

    await until("the imported tools", 5_000, () => registry.get("notes_read_note"), 50);
    const answer = await invoke("notes_read_note", { id: "n-1" }, "call-read");
    expect(answer.envelope).toMatchObject({ ok: true });
    expect(JSON.stringify(answer.envelope)).toContain("buy milk");
    expect(upstream.accepted.length).toBeGreaterThan(0);
  });

  it("keeps the tokens sealed in the credential store, as the tenant's", async () => {
    const listed = await stores.sealed?.credentials.list({ tenantId: TENANT });
    const tokens = listed?.find((credential) => credential.ref === "mcp:notes");
    expect(tokens).toMatchObject({
      kind: "oauth",
      provider: "mcp:notes",
      principalId: undefined,
      scopes: ["notes:read"],
      account: upstream.issuer,
      hasRefreshToken: true,
    });
    expect(listed?.some((credential) => credential.ref === "mcp:notes:client")).toBe(true);
    const token = upstream.accepted.at(-1) ?? "";
    expect(token.length).toBeGreaterThan(20);
    // Neither the access token nor its refresh token appears in the database file in the clear.
    const file = readFileSync(join(directory, "toolreg.db"));
    expect(file.includes(Buffer.from(token))).toBe(false);
  });

  it("refreshes an expired token and runs the call with the new one", async () => {
    const before = upstream.accepted.at(-1);
    upstream.expireTokens();
    const answer = await invoke("notes_read_note", { id: "n-2" }, "call-refresh");
    expect(answer.envelope).toMatchObject({ ok: true });
    expect(upstream.tokenRequests.at(-1)).toMatchObject({ grant_type: "refresh_token" });
    expect(upstream.accepted.at(-1)).not.toBe(before);
  });

  it("steps up on 403 insufficient_scope: a new consent for the wider scope, then the call runs", async () => {
    const first = await invoke("notes_write_note", { text: "hello" }, "call-write-1");
    expect(first.envelope).toMatchObject({ ok: false, error: { code: "auth_required" } });
    const details = (first.envelope.ok ? {} : first.envelope.error.details) as { consentUrl?: string };
    const link = details.consentUrl ?? "";
    expect(link).toBe(consentLinks().at(-1));
    // toolreg's own link only: the authorization server's URL, with its live state, is not in the answer.
    expect(JSON.stringify(first.envelope)).not.toContain(`${upstream.issuer}/authorize`);

    const page = await completeConsent(link, { login: "", password: "" }, alice);
    expect(page.status).toBe(200);
    expect(upstream.authorizeRequests.at(-1)?.get("scope")).toBe("notes:read notes:write");
    const again = await invoke("notes_write_note", { text: "hello" }, "call-write-2");
    expect(again.envelope).toMatchObject({ ok: true });
    expect(JSON.stringify(again.envelope)).toContain("saved: hello");
    const stored = await stores.sealed?.credentials.list({ tenantId: TENANT, ref: "mcp:notes" });
    expect(stored?.[0]?.scopes).toEqual(["notes:read", "notes:write"]);
  });

  it("refuses a callback whose state it did not give out, storing nothing", async () => {
    const before = await stores.sealed?.credentials.get({ tenantId: TENANT, ref: "mcp:notes" });
    const cookie = [...(alice.get(listening.url) ?? new Map<string, string>())]
      .map(([name, value]) => `${name}=${value}`)
      .join("; ");
    const response = await fetch(
      `${listening.url}/oauth/callback?state=forged&code=abc&iss=${upstream.issuer}`,
      {
        headers: { cookie },
      },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This link did not work");
    const after = await stores.sealed?.credentials.get({ tenantId: TENANT, ref: "mcp:notes" });
    expect(after?.version).toBe(before?.version);
  });

  it("refuses an answer naming another issuer (RFC 9207): nothing is exchanged or stored", async () => {
    upstream.expireTokens();
    // A refresh token would get a new one without asking: take it away, so a consent is opened.
    await stores.sealed?.credentials.revoke({
      tenantId: TENANT,
      ref: "mcp:notes",
      at: Date.now(),
      reason: "test",
    });
    const asked = await invoke("notes_read_note", { id: "n-3" }, "call-read-3");
    expect(asked.envelope).toMatchObject({ ok: false, error: { code: "auth_required" } });
    const link = ((asked.envelope.ok ? {} : asked.envelope.error.details) as { consentUrl?: string })
      .consentUrl;
    const exchanges = upstream.tokenRequests.length;
    upstream.answerIssuer = "https://attacker.example";
    try {
      const page = await completeConsent(link ?? "", { login: "", password: "" }, alice);
      expect(page.status).toBe(400);
      expect(page.text).toContain("attacker.example");
    } finally {
      upstream.answerIssuer = upstream.issuer;
    }
    expect(upstream.tokenRequests.length).toBe(exchanges);
    const stored = await stores.sealed?.credentials.get({ tenantId: TENANT, ref: "mcp:notes" });
    expect(stored?.revokedAt).toBeDefined();
  });
});
