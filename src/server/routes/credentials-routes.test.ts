/**
 * @module /api/v1/credentials over real HTTP on 127.0.0.1, on a real SQLite file with the credentials sealed
 * under a key: a pasted token stored (the caller's own; the tenant's for an operator alone), listed as
 * metadata and revoked; an OAuth consent started for the caller; the refusals; and a secret in no answer.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createEgressClient, type EgressClient } from "../../egress/egress-client.js";
import { ToolRegistry } from "../../registry/registry.js";
import { silentLogger } from "../../seam/context.js";
import { defineToolkit, toolFor } from "../../tools/toolkit/index.js";
import { createToolkitHost } from "../../tools/toolkit/toolkit-host.js";
import { type Listening, listen } from "../listen.js";
import { openRegistryServer, type RegistryServer } from "../registry-server.js";

const TOKEN = "vendor-token-Zq8Jx3";
const AUTHORIZE_URL = "https://notes.example/authorize";

/** A vendor toolkit whose one tool needs the credential `id`: OAuth-capable, or a typed token alone. */
function vendorToolkit(id: string, oauth: boolean) {
  const vendorTool = toolFor<Record<string, never>>();
  return defineToolkit({
    id,
    version: "0.1.0",
    package: `toolreg-test-${id}`,
    description: `The ${id} service, for the credentials routes test.`,
    config: z.strictObject({ credentialRef: z.string().min(1).default(id) }),
    auth: oauth
      ? {
          kind: "token-or-oauth",
          header: "authorization",
          scheme: "Bearer",
          oauth: { authorizeUrl: `https://${id}.example/authorize`, tokenUrl: `https://${id}.example/token` },
        }
      : { kind: "token", header: "authorization", scheme: "Bearer" },
    tools: [
      vendorTool({
        name: `${id}_read`,
        description: `Reads from ${id}.`,
        category: "productivity",
        effect: "read",
        input: z.strictObject({}),
        oauthScopes: oauth ? [`${id}:read`] : [],
        run: () => ({ content: "read" }),
      }),
    ],
    bind: (config, host) => {
      host.egress({
        hosts: [`${id}.example`],
        credential: { header: "authorization", scheme: "Bearer", credentialRef: config.credentialRef },
      });
      return {};
    },
  });
}

let directory: string;
let transport: EgressClient;
let toolkitHost: ReturnType<typeof createToolkitHost>;
let server: RegistryServer;
let listening: Listening;
/** The same tools on a server given no credentials key. */
let bare: RegistryServer;
let bareListening: Listening;
const keys: Record<string, string> = {};
const loginTokens: Record<string, string> = {};
let bareKey = "";

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "toolreg-credentials-routes-"));
  toolkitHost = createToolkitHost();
  transport = createEgressClient();
  // notes asks for consent through a configured app; docs could, but has no app; wiki takes a typed token.
  const tools = [
    ...(await vendorToolkit("notes", true).build({}, toolkitHost)),
    ...(await vendorToolkit("docs", true).build({}, toolkitHost)),
    ...(await vendorToolkit("wiki", false).build({}, toolkitHost)),
  ];
  let publicUrl = "";
  server = openRegistryServer({
    registry: new ToolRegistry(tools),
    store: join(directory, "toolreg.db"),
    logger: silentLogger,
    credentials: {
      key: randomBytes(32),
      publicUrl: () => publicUrl,
      transport,
      apps: { notes: { clientId: "notes-app" } },
    },
  });
  listening = await listen(server, { port: 0, host: "127.0.0.1" });
  publicUrl = listening.url;
  for (const [principalId, operator] of [
    ["alice", false],
    ["bob", false],
    ["olga", true],
  ] as const) {
    const created = await server.auth.createKey({ tenantId: "acme", principalId, operator });
    keys[principalId] = created.key;
    loginTokens[principalId] = await server.auth.createLoginToken(created.record.id);
  }
  bare = openRegistryServer({
    registry: new ToolRegistry(tools),
    store: join(directory, "bare.db"),
    logger: silentLogger,
  });
  bareListening = await listen(bare, { port: 0, host: "127.0.0.1" });
  bareKey = (await bare.auth.createKey({ tenantId: "acme", principalId: "alice", operator: true })).key;
});

afterAll(async () => {
  await listening?.stop(1_000);
  await bareListening?.stop(1_000);
  await server?.close();
  await bare?.close();
  await toolkitHost?.close();
  await transport?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** Every answer's text, so a test can say a secret is in none of them. */
const answers: string[] = [];

async function api(
  principal: string,
  path: string,
  body?: unknown,
  base = listening.url,
  key = keys[principal],
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/api/v1/credentials${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  answers.push(text);
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

const listed = async (principal: string) =>
  (await api(principal, "")).body as {
    credentials: { ref: string; principalId?: string; revokedAt?: number }[];
    connectable: { ref: string; provider: string; oauth: boolean }[];
  };

describe("storing a pasted token", () => {
  it("stores the caller's own token and answers its metadata, never the token", async () => {
    const stored = await api("alice", "", {
      ref: "wiki",
      token: TOKEN,
      account: "alice@wiki",
      scopes: ["pages:read"],
    });
    expect(stored.status).toBe(201);
    expect(stored.body).toMatchObject({
      tenantId: "acme",
      principalId: "alice",
      ref: "wiki",
      kind: "token",
      provider: "wiki",
      account: "alice@wiki",
      scopes: ["pages:read"],
      connectedBy: "alice",
    });
    expect(stored.body).not.toHaveProperty("secrets");
    const credential = await server.deps.credentialStore?.get({
      tenantId: "acme",
      principalId: "alice",
      ref: "wiki",
    });
    expect(credential?.secrets?.accessToken).toBe(TOKEN);
    expect((await listed("alice")).credentials).toEqual([
      expect.objectContaining({ ref: "wiki", principalId: "alice" }),
    ]);
    // bob sees the tenant's credentials and his own, not alice's.
    expect((await listed("bob")).credentials).toEqual([]);
  });

  it("stores the tenant's token for an operator, and refuses it to anyone else", async () => {
    const refused = await api("bob", "", { ref: "wiki", token: TOKEN, principalId: null });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("not_authorized");
    const onBehalf = await api("bob", "", { ref: "wiki", token: TOKEN, principalId: "alice" });
    expect(onBehalf.status).toBe(403);
    expect(await server.deps.credentialStore?.list({ tenantId: "acme", principalId: null })).toEqual([]);

    const stored = await api("olga", "", { ref: "wiki", token: TOKEN, principalId: null });
    expect(stored.status).toBe(201);
    expect(stored.body).toMatchObject({ ref: "wiki", provider: "wiki", connectedBy: "olga" });
    expect(stored.body.principalId).toBeUndefined();
    expect((await listed("bob")).credentials.map((credential) => credential.ref)).toEqual(["wiki"]);
  });

  it("refuses a ref no served toolkit uses, a provider that does not use it, and a malformed token", async () => {
    const unknown = await api("alice", "", { ref: "mail", token: TOKEN });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: "unknown_credential" });
    expect(unknown.body.detail).toContain('no served toolkit uses the credential "mail"');
    const wrongProvider = await api("alice", "", { ref: "wiki", provider: "notes", token: TOKEN });
    expect(wrongProvider.status).toBe(422);
    expect(wrongProvider.body.detail).toContain('"wiki" is the credential of wiki, not of notes');
    const spaced = await api("alice", "", { ref: "wiki", token: `${TOKEN} ${TOKEN}` });
    expect(spaced.status).toBe(422);
    expect(spaced.body.detail).toContain("token: it holds whitespace");
    expect(JSON.stringify(spaced.body)).not.toContain(TOKEN);
    const empty = await api("alice", "", { ref: "wiki", token: "" });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toContain("token is empty");
    const extra = await api("alice", "", { ref: "wiki", token: TOKEN, secret: TOKEN });
    expect(extra.status).toBe(422);
  });

  it("stores a private key pasted as its whole PEM block, line breaks and all", async () => {
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${"QUJD".repeat(16)}\n${"REVG".repeat(8)}\n-----END RSA PRIVATE KEY-----\n`;
    const stored = await api("alice", "", { ref: "wiki", token: pem });
    expect(stored.status).toBe(201);
    expect(JSON.stringify(stored.body)).not.toContain("QUJD");
    const mismatched = pem.replace("END RSA", "END EC");
    expect((await api("alice", "", { ref: "wiki", token: mismatched })).status).toBe(422);
  });

  it("does not quote a body it cannot parse, which holds the token", async () => {
    const broken = await api("alice", "", `{"ref": "wiki", "token": ${TOKEN}}`);
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe("malformed_json");
    expect(JSON.stringify(broken.body)).not.toContain(TOKEN.slice(0, 8));
  });

  it("answers that no credentials are kept on a server given no key", async () => {
    for (const answer of [
      await api("alice", "", { ref: "wiki", token: TOKEN }, bareListening.url, bareKey),
      await api("alice", "/connect", { ref: "notes" }, bareListening.url, bareKey),
      await api("alice", "", undefined, bareListening.url, bareKey),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe("credentials_not_configured");
    }
  });
});

describe("connecting with OAuth", () => {
  it("lists what can be connected, and whether it can be with OAuth", async () => {
    expect((await listed("alice")).connectable).toEqual([
      { ref: "notes", provider: "notes", oauth: true },
      { ref: "docs", provider: "docs", oauth: true },
      { ref: "wiki", provider: "wiki", oauth: false },
    ]);
  });

  it("opens a consent for the caller and answers toolreg's start link, which sends them to the provider", async () => {
    const started = await api("alice", "/connect", { ref: "notes" });
    expect(started.status).toBe(200);
    const consentUrl = String(started.body.consentUrl);
    expect(consentUrl).toMatch(new RegExp(`^${listening.url}/oauth/start/[0-9a-f-]{36}$`));
    // The provider's URL, with its live state, is not handed out: only the start link binds a browser.
    expect(JSON.stringify(started.body)).not.toContain("notes.example");

    const login = await fetch(`${listening.url}/login?token=${loginTokens.alice}`, { redirect: "manual" });
    const session = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const opened = await fetch(consentUrl, { headers: { cookie: session }, redirect: "manual" });
    expect(opened.status).toBe(303);
    const authorize = new URL(opened.headers.get("location") ?? "");
    expect(`${authorize.origin}${authorize.pathname}`).toBe(AUTHORIZE_URL);
    expect(authorize.searchParams.get("client_id")).toBe("notes-app");
    // Every scope the ref's tools need, when none was named.
    expect(authorize.searchParams.get("scope")).toBe("notes:read");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${listening.url}/oauth/callback`);

    // The consent is alice's: bob's session is refused the same link.
    const bobLogin = await fetch(`${listening.url}/login?token=${loginTokens.bob}`, { redirect: "manual" });
    const bobSession = (bobLogin.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect((await fetch(consentUrl, { headers: { cookie: bobSession }, redirect: "manual" })).status).toBe(
      403,
    );
  });

  it("asks for the scopes named", async () => {
    const started = await api("bob", "/connect", { ref: "notes", scopes: ["notes:read", "notes:write"] });
    const consentId = String(started.body.consentUrl).split("/").pop() ?? "";
    const authorization = await server.deps.seam.consentAuthorization(
      { tenantId: "acme", principalId: "bob" },
      consentId,
    );
    expect(authorization.ok).toBe(true);
    if (authorization.ok)
      expect(new URL(authorization.url).searchParams.get("scope")).toBe("notes:read notes:write");
  });

  it("refuses a provider that cannot ask for consent, one with no OAuth app, and an unknown ref", async () => {
    const tokenOnly = await api("alice", "/connect", { ref: "wiki" });
    expect(tokenOnly.status).toBe(422);
    expect(tokenOnly.body).toMatchObject({ code: "consent_unavailable" });
    expect(tokenOnly.body.detail).toContain("wiki cannot ask for consent");
    const noApp = await api("alice", "/connect", { ref: "docs" });
    expect(noApp.status).toBe(404);
    expect(noApp.body).toMatchObject({ code: "oauth_app_not_configured" });
    expect(noApp.body.detail).toContain("no OAuth app for docs is configured");
    const unknown = await api("alice", "/connect", { ref: "mail" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe("unknown_credential");
  });
});

describe("revoking", () => {
  it("revokes the caller's own; the tenant's only for an operator", async () => {
    const refused = await api("bob", "/revoke", { ref: "wiki", principalId: null });
    expect(refused.status).toBe(403);
    const revoked = await api("alice", "/revoke", { ref: "wiki" });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      ref: "wiki",
      principalId: "alice",
      revokedReason: "revoked by alice",
    });
    expect(typeof revoked.body.revokedAt).toBe("number");
    const again = await api("alice", "/revoke", { ref: "wiki" });
    expect(again.status).toBe(404);
    const tenant = await api("olga", "/revoke", { ref: "wiki", principalId: null });
    expect(tenant.status).toBe(200);
  });

  it("never put the token in any answer", () => {
    expect(answers.length).toBeGreaterThan(20);
    for (const answer of answers) expect(answer).not.toContain(TOKEN);
  });
});
