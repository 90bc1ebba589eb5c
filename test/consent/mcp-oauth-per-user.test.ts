/**
 * @module Whose token an OAuth import's call carries, end to end over real HTTP on 127.0.0.1 (toolreg's
 * registry server on SQLite with sealed credentials, the OAuth-only MCP server fixture): per user, each
 * user of a tenant consents through their own link and each call goes out with that user's own bearer,
 * sealed as theirs; a user who has not consented gets their own link and no one else's token is sent; an
 * idle user's connection is closed and opened again. Per tenant, another tenant's call is refused; per
 * deployment, it goes out with the one token. What the upstream asks (roots) on a user's connection
 * reaches that user's own call in flight, never another user's.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEgressClient } from "../../src/egress/egress-client.js";
import { type McpImport, type McpImportEvent, mcpServer } from "../../src/mcp/import/mcp-server.js";
import type { OAuthTokenOwner } from "../../src/mcp/import/oauth/mcp-oauth-settings.js";
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
const IDLE_MS = 400;

let upstream: OAuthMcpServer;
/** An upstream with sessions, which can ask its clients; started by the test that needs it. */
let asking: OAuthMcpServer | undefined;
let directory: string;
let stores: DeploymentStores;
let server: RegistryServer;
let listening: Listening;
const imports = new Map<string, McpImport>();
const events: McpImportEvent[] = [];
const keys = new Map<string, string>();
const browsers = new Map<string, CookieJars>();
const registry = new ToolRegistry([]);
const transport = createEgressClient({ policy: { allowAddressClasses: ["loopback"] } });

async function importNotes(
  name: string,
  per: OAuthTokenOwner,
  userConnections: { max?: number; idleMs?: number } = { idleMs: IDLE_MS },
  url = upstream.url,
): Promise<McpImport> {
  const sealed = stores.sealed;
  if (!sealed) throw new Error("the stores were opened without their key");
  const imported = await mcpServer({
    name,
    transport: {
      kind: "http",
      url,
      egress: { allowAddressClasses: ["loopback"] },
      oauth: { per, tenantId: TENANT, principalId: "alice", userConnections },
    },
    oauthHost: {
      credentials: sealed.credentials,
      consents: sealed.consents,
      redirectUri: () => `${listening.url}/oauth/callback`,
      consentLink: (id) => `${listening.url}/oauth/start/${id}`,
    },
    onEvent: (event) => events.push(event),
  });
  imports.set(name, imported);
  syncRegistry(registry, imported);
  // The listing user (alice) consents first: until then the import lists nothing.
  const link = events.flatMap((event) =>
    event.type === "mcp.authorization_required" && event.server === name ? [event.consentUrl] : [],
  )[0];
  const page = await completeConsent(link ?? "", { login: "", password: "" }, browsers.get("alice"));
  expect(page.text).toContain(`Connected mcp:${name}`);
  await until(`${name}'s tools`, 5_000, () => imported.tools().length > 0 || undefined, 50);
  return imported;
}

beforeAll(async () => {
  upstream = await startOAuthMcpServer();
  directory = mkdtempSync(join(tmpdir(), "toolreg-mcp-oauth-per-user-"));
  stores = openSqliteDeployment(join(directory, "toolreg.db"), { credentialsKey: randomBytes(32) });
  server = openRegistryServer({
    registry,
    store: stores,
    logger: silentLogger,
    credentials: {
      key: randomBytes(32),
      publicUrl: () => listening.url,
      transport,
      exchanges: (provider) => imports.get(provider.replace(/^mcp:/, ""))?.consentExchange,
    },
  });
  listening = await listen(server, { port: 0, host: "127.0.0.1" });
  for (const [tenantId, principalId] of [
    [TENANT, "alice"],
    [TENANT, "bob"],
    [TENANT, "carol"],
    ["beta", "dave"],
  ] as const) {
    const created = await server.auth.createKey({ tenantId, principalId, label: "test" });
    keys.set(principalId, created.key);
    browsers.set(
      principalId,
      await signedIn(listening.url, await server.auth.createLoginToken(created.record.id)),
    );
  }
  await importNotes("notes", "user");
});

afterAll(async () => {
  for (const imported of imports.values()) await imported.close();
  await listening?.stop(1_000);
  await server?.close();
  await transport.close();
  await upstream?.close();
  await asking?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

let calls = 0;
async function invoke(user: string, tool: string, input: unknown): Promise<Envelope> {
  const response = await fetch(`${listening.url}/api/v1/tools/${tool}/invoke`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${keys.get(user)}`,
      "content-type": "application/json",
      "x-toolreg-run-id": "run-1",
      "x-toolreg-tool-call-id": `call-${++calls}`,
    },
    body: JSON.stringify(input),
  });
  return (await response.json()) as Envelope;
}

function detailsOf(envelope: Envelope): { consentUrl?: string } {
  return (envelope.ok ? {} : envelope.error.details) as { consentUrl?: string };
}

/** The access token stored for a user (or, with none, for the tenant). */
async function storedToken(principalId: string | undefined, ref = "mcp:notes"): Promise<string | undefined> {
  const stored = await stores.sealed?.credentials.get({ tenantId: TENANT, principalId, ref });
  return stored?.secrets?.accessToken;
}

/** Waits until an event after the first `since` says a user's connection closed as `closed` describes. */
async function waitForClose(
  since: number,
  closed: { server?: string; principalId: string; reason: string },
  what: string,
): Promise<void> {
  await until(
    what,
    5_000,
    () =>
      events
        .slice(since)
        .some(
          (event) =>
            event.type === "mcp.user_connection_closed" &&
            (closed.server === undefined || event.server === closed.server) &&
            event.principalId === closed.principalId &&
            event.reason === closed.reason,
        ) || undefined,
    50,
  );
}

describe("an OAuth import per user", () => {
  it("gives a user who has not consented their own link, sending no one else's token", async () => {
    const alicesToken = await storedToken("alice");
    expect(alicesToken).toBeDefined();
    const seen = upstream.requests.length;
    const answer = await invoke("bob", "notes_read_note", { id: "n-1" });
    expect(answer).toMatchObject({ ok: false, error: { code: "auth_required" } });
    expect(answer.ok ? "" : answer.error.message).toContain("bob to authorize");
    const link = detailsOf(answer).consentUrl ?? "";
    expect(link).toMatch(new RegExp(`^${listening.url}/oauth/start/`));
    const consent = await stores.sealed?.consents.getRequest({
      tenantId: TENANT,
      id: link.split("/").at(-1) ?? "",
    });
    expect(consent).toMatchObject({ principalId: "bob", credentialRef: "mcp:notes" });
    // Bob's attempt reached the server with no token it accepted: alice's was not sent for him.
    expect(upstream.requests.slice(seen)).toEqual([]);

    // The link is bob's: alice, signed in as herself, cannot complete it for him.
    const stolen = await completeConsent(link, { login: "", password: "" }, browsers.get("alice"));
    expect(stolen.text).not.toContain("Connected");
    expect(await storedToken("bob")).toBeUndefined();

    const page = await completeConsent(link, { login: "", password: "" }, browsers.get("bob"));
    expect(page.text).toContain("Connected mcp:notes");
  });

  it("sends each user's call with that user's own bearer", async () => {
    const bobs = await invoke("bob", "notes_read_note", { id: "n-2" });
    expect(bobs).toMatchObject({ ok: true });
    const alices = await invoke("alice", "notes_read_note", { id: "n-3" });
    expect(alices).toMatchObject({ ok: true });
    const bobsToken = await storedToken("bob");
    const alicesToken = await storedToken("alice");
    expect(bobsToken).toBeDefined();
    expect(bobsToken).not.toBe(alicesToken);
    const called = upstream.requests.filter((request) => request.method === "tools/call").slice(-2);
    expect(called).toEqual([
      { method: "tools/call", tool: "read_note", token: bobsToken },
      { method: "tools/call", tool: "read_note", token: alicesToken },
    ]);
  });

  it("keeps each user's tokens sealed as that user's credential, none as the tenant's", async () => {
    const listed = await stores.sealed?.credentials.list({ tenantId: TENANT, ref: "mcp:notes" });
    expect(listed?.map((credential) => credential.principalId).sort()).toEqual(["alice", "bob"]);
    for (const credential of listed ?? []) {
      expect(credential).toMatchObject({ kind: "oauth", provider: "mcp:notes", hasRefreshToken: true });
      expect(credential.connectedBy).toBe(credential.principalId);
    }
    expect(await storedToken(undefined)).toBeUndefined();
    const file = readFileSync(join(directory, "toolreg.db"));
    for (const user of ["alice", "bob"]) {
      const token = (await storedToken(user)) ?? "";
      expect(token.length).toBeGreaterThan(20);
      expect(file.includes(Buffer.from(token))).toBe(false);
    }
  });

  it("gives a third user of the tenant their own link while the others are connected", async () => {
    const seen = upstream.requests.length;
    const answer = await invoke("carol", "notes_read_note", { id: "n-4" });
    expect(answer).toMatchObject({ ok: false, error: { code: "auth_required" } });
    expect(answer.ok ? "" : answer.error.message).toContain("carol to authorize");
    const id = (detailsOf(answer).consentUrl ?? "").split("/").at(-1) ?? "";
    expect(await stores.sealed?.consents.getRequest({ tenantId: TENANT, id })).toMatchObject({
      principalId: "carol",
    });
    expect(upstream.requests.slice(seen)).toEqual([]);
  });

  it("serves a user of another tenant with their own consent and token, kept as that tenant's user's", async () => {
    const asked = await invoke("dave", "notes_read_note", { id: "n-14" });
    expect(asked).toMatchObject({ ok: false, error: { code: "auth_required" } });
    const link = detailsOf(asked).consentUrl ?? "";
    const id = link.split("/").at(-1) ?? "";
    expect(await stores.sealed?.consents.getRequest({ tenantId: "beta", id })).toMatchObject({
      principalId: "dave",
    });
    const page = await completeConsent(link, { login: "", password: "" }, browsers.get("dave"));
    expect(page.text).toContain("Connected mcp:notes");
    expect(await invoke("dave", "notes_read_note", { id: "n-15" })).toMatchObject({ ok: true });
    const daves = await stores.sealed?.credentials.get({
      tenantId: "beta",
      principalId: "dave",
      ref: "mcp:notes",
    });
    expect(daves?.secrets?.accessToken).toBeDefined();
    expect(upstream.requests.at(-1)).toEqual({
      method: "tools/call",
      tool: "read_note",
      token: daves?.secrets?.accessToken,
    });
  });

  it("closes a user's connection once unused, and opens it again at their next call", async () => {
    await invoke("bob", "notes_read_note", { id: "n-5" });
    const closing = events.length;
    await waitForClose(closing, { principalId: "bob", reason: "idle" }, "bob's idle connection to close");
    const seen = upstream.requests.length;
    expect(await invoke("bob", "notes_read_note", { id: "n-6" })).toMatchObject({ ok: true });
    const bobsToken = await storedToken("bob");
    // A new connection: initialize again, with bob's token, before the call.
    expect(upstream.requests.slice(seen).map((request) => [request.method, request.token])).toEqual([
      ["initialize", bobsToken],
      ["notifications/initialized", bobsToken],
      ["tools/call", bobsToken],
    ]);
  });
});

describe("an OAuth import per user with room for one user's connection", () => {
  it("closes the connection used longest ago for another user's, and bob's next call opens his again", async () => {
    await importNotes("few-notes", "user", { max: 1 });
    const asked = await invoke("bob", "few_notes_read_note", { id: "n-10" });
    const page = await completeConsent(
      detailsOf(asked).consentUrl ?? "",
      { login: "", password: "" },
      browsers.get("bob"),
    );
    expect(page.text).toContain("Connected mcp:few-notes");
    expect(await invoke("bob", "few_notes_read_note", { id: "n-11" })).toMatchObject({ ok: true });
    const closing = events.length;
    expect(await invoke("carol", "few_notes_read_note", { id: "n-12" })).toMatchObject({
      ok: false,
      error: { code: "auth_required" },
    });
    await waitForClose(
      closing,
      { server: "few-notes", principalId: "bob", reason: "evicted" },
      "bob's connection to make room for carol's",
    );
    const seen = upstream.requests.length;
    expect(await invoke("bob", "few_notes_read_note", { id: "n-13" })).toMatchObject({ ok: true });
    expect(upstream.requests.slice(seen).map((request) => request.method)).toEqual([
      "initialize",
      "notifications/initialized",
      "tools/call",
    ]);
  });
});

describe("an OAuth import per tenant or per deployment", () => {
  it("refuses another tenant's call per tenant, saying whose connection it is", async () => {
    await importNotes("tenant-notes", "tenant");
    const seen = upstream.requests.length;
    const answer = await invoke("dave", "tenant_notes_read_note", { id: "n-7" });
    expect(answer).toMatchObject({ ok: false, error: { code: "not_authorized" } });
    expect(answer.ok ? "" : answer.error.message).toContain("belongs to tenant acme");
    expect(upstream.requests.slice(seen)).toEqual([]);
    // The tenant's own users share its token.
    expect(await invoke("bob", "tenant_notes_read_note", { id: "n-8" })).toMatchObject({ ok: true });
    expect(upstream.requests.at(-1)?.token).toBe(await storedToken(undefined, "mcp:tenant-notes"));
  });

  it("lets every tenant's call go out with the one token per deployment", async () => {
    await importNotes("shared-notes", "deployment");
    expect(await invoke("dave", "shared_notes_read_note", { id: "n-9" })).toMatchObject({ ok: true });
    expect(upstream.requests.at(-1)).toMatchObject({
      method: "tools/call",
      token: await storedToken(undefined, "mcp:shared-notes"),
    });
  });
});

describe("an OAuth import per user whose upstream asks its client during a call", () => {
  it("puts a request on a user's connection to that user's call alone, never to another user's", async () => {
    const fixture = await startOAuthMcpServer({ sessions: true });
    asking = fixture;
    await importNotes("asking-notes", "user", {}, fixture.url);
    for (const user of ["bob", "dave"]) {
      const asked = await invoke(user, "asking_notes_read_note", { id: "n-20" });
      const page = await completeConsent(
        detailsOf(asked).consentUrl ?? "",
        { login: "", password: "" },
        browsers.get(user),
      );
      expect(page.text).toContain("Connected mcp:asking-notes");
    }
    // Dave's call ends; his connection, and his session's standing stream, stay open.
    expect(await invoke("dave", "asking_notes_read_note", { id: "n-21" })).toMatchObject({ ok: true });
    const sessionOf = async (tenantId: string, principalId: string) => {
      const stored = await stores.sealed?.credentials.get({ tenantId, principalId, ref: "mcp:asking-notes" });
      const session = fixture.sessions.find((one) => one.token === stored?.secrets?.accessToken);
      if (!session) throw new Error(`no upstream session for ${principalId}`);
      return session.server;
    };

    // Bob's MCP client, which declares roots, has exactly one call in flight: the upstream's `wait`.
    let asked = 0;
    const client = new Client({ name: "bobs-client", version: "0" }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked++;
      return { roots: [{ uri: "file:///home/bob", name: "bob's" }] };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${listening.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${keys.get("bob")}` } },
      }),
    );
    const call = client.callTool({ name: "asking_notes_wait", arguments: {} });
    try {
      await until(
        "bob's call to reach the upstream",
        5_000,
        () => fixture.waiting.length === 1 || undefined,
        50,
      );

      // Dave's session asks: bob's client is not, and dave's upstream hears why.
      const daves = await sessionOf("beta", "dave");
      await expect(daves.listRoots(undefined, { timeout: 5_000 })).rejects.toThrow(
        "toolreg cannot pass on roots/list: no call to the MCP server asking-notes is in flight on this connection",
      );
      expect(asked).toBe(0);

      // Bob's own session asks during his call: his client answers.
      const bobs = await sessionOf(TENANT, "bob");
      expect(await bobs.listRoots(undefined, { timeout: 5_000 })).toEqual({
        roots: [{ uri: "file:///home/bob", name: "bob's" }],
      });
      expect(asked).toBe(1);

      fixture.waiting.splice(0)[0]?.();
      expect(await call).toMatchObject({
        content: [{ type: "text", text: expect.stringContaining("waited") }],
      });
    } finally {
      // Whatever failed, the call is let go and ends before its client closes.
      for (const end of fixture.waiting.splice(0)) end();
      await call.catch(() => undefined);
      await client.close();
    }
  });
});
