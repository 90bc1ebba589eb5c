/**
 * @module Consent at the seam, with a toolkit built by `defineToolkit` against a vendor on 127.0.0.1: an
 * authorization server that checks PKCE as RFC 7636 §4.6 says, and an API that accepts only the tokens it
 * issued, answering others 401 with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3.1).
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createEgressClient, type EgressClient } from "../../egress/egress-client.js";
import type { ConsentStore } from "../../ports/consent-store.js";
import type { CredentialStore } from "../../ports/credential-store.js";
import { createMemoryConsentStore } from "../../stores/memory/consents.js";
import { createMemoryCredentialStore } from "../../stores/memory/credentials.js";
import { createTestHarness, type TestHarness } from "../../test/test-harness.js";
import { type AnyToolSpec, defineToolkit } from "../../tools/toolkit/define-toolkit.js";
import { callOptions } from "../../tools/toolkit/egress-call.js";
import { createToolkitHost } from "../../tools/toolkit/toolkit-host.js";
import { throwIfHttpError } from "../../tools/toolkit/upstream-status.js";
import { approvalIdOf, type Envelope } from "../envelope.js";
import { type CredentialInspector, chainCredentialResolvers } from "./credential-inspector.js";
import { OAuthClients } from "./oauth-clients.js";
import { createStoreCredentialResolver } from "./store-credential-resolver.js";

/** The vendor: its authorization server (codes, tokens) and its API, with what each was sent. */
const vendor = {
  server: undefined as Server | undefined,
  url: "",
  /** Code → the PKCE challenge and scopes it was issued for. */
  codes: new Map<string, { challenge: string; scopes: string; redirectUri: string }>(),
  /** Access token → granted scopes; a revoked token is deleted. */
  tokens: new Map<string, string[]>(),
  apiRequests: [] as { method: string; path: string; token: string | undefined }[],
  tokenRequests: [] as URLSearchParams[],
};

const body = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    request.on("data", (chunk) => {
      text += chunk;
    });
    request.on("end", () => resolve(text));
  });

function json(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(value));
}

async function handle(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? "/", vendor.url);
  if (request.method === "POST" && url.pathname === "/oauth/token") {
    const form = new URLSearchParams(await body(request));
    vendor.tokenRequests.push(form);
    const issued = vendor.codes.get(form.get("code") ?? "");
    vendor.codes.delete(form.get("code") ?? "");
    const verifier = form.get("code_verifier") ?? "";
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    // RFC 7636 §4.6: the server recomputes the challenge from the verifier and compares.
    if (
      !issued ||
      issued.challenge !== challenge ||
      issued.redirectUri !== form.get("redirect_uri") ||
      form.get("client_secret") !== "app-secret"
    ) {
      return json(response, 400, { error: "invalid_grant", error_description: "grant request is invalid" });
    }
    const token = `vendor-${randomUUID()}`;
    vendor.tokens.set(token, issued.scopes.split(" "));
    return json(response, 200, {
      access_token: token,
      token_type: "Bearer",
      expires_in: 3600,
      scope: issued.scopes,
    });
  }
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
  vendor.apiRequests.push({ method: request.method ?? "GET", path: url.pathname, token });
  const scopes = token === undefined ? undefined : vendor.tokens.get(token);
  if (!scopes) {
    return json(
      response,
      401,
      { error: "invalid_token" },
      { "www-authenticate": 'Bearer error="invalid_token"' },
    );
  }
  if (url.pathname.endsWith("/n-broken")) return json(response, 500, { error: "server_error" });
  if (request.method === "GET")
    return json(response, 200, { id: url.pathname.split("/").pop(), text: "hello" });
  const note = JSON.parse(await body(request)) as { text: string };
  return json(response, 201, { id: "n-new", text: note.text });
}

beforeAll(async () => {
  vendor.server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => json(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => vendor.server?.listen(0, "127.0.0.1", resolve));
  vendor.url = `http://127.0.0.1:${(vendor.server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => vendor.server?.close(() => resolve())));

interface NotesEnv {
  egress: EgressClient;
  base: string;
}
const getNote: AnyToolSpec<NotesEnv> = {
  name: "notes_get_note",
  description: "Reads one note by id.",
  category: "productivity",
  effect: "read",
  input: z.strictObject({ id: z.string().regex(/^n-[a-z0-9-]{1,40}$/) }),
  oauthScopes: ["notes:read"],
  async run(input: { id: string }, context, env) {
    const response = await env.egress.request(`${env.base}/api/notes/${input.id}`, callOptions(context));
    throwIfHttpError(response);
    return { data: JSON.parse(response.body.toString()) };
  },
};
const addNote: AnyToolSpec<NotesEnv> = {
  name: "notes_add_note",
  description: "Adds a note.",
  category: "productivity",
  effect: "external-write",
  input: z.strictObject({ text: z.string().min(1).max(200) }),
  oauthScopes: ["notes:write"],
  async run(input: { text: string }, context, env) {
    const response = await env.egress.request(`${env.base}/api/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(input),
      ...callOptions(context),
    });
    throwIfHttpError(response);
    return { data: JSON.parse(response.body.toString()) };
  },
};

const toolkitWith = (auth: "token-or-oauth" | "token") =>
  defineToolkit({
    id: "notes",
    version: "0.1.0",
    package: "toolreg-test-notes",
    description: "A notes service, for tests.",
    config: z.strictObject({ credentialRef: z.string().default("notes"), baseUrl: z.string() }),
    auth:
      auth === "token"
        ? { kind: "token", header: "authorization", scheme: "Bearer" }
        : {
            kind: "token-or-oauth",
            header: "authorization",
            scheme: "Bearer",
            oauth: { authorizeUrl: "https://notes.example/authorize", tokenUrl: `${vendor.url}/oauth/token` },
            // As GitHub's `project` grants `read:project`: a broader scope covers the narrower, transitively.
            impliedScopes: { "notes:admin": ["notes:write"], "notes:write": ["notes:read"] },
          },
    tools: [getNote, addNote],
    bind: (config, host) => ({
      base: config.baseUrl,
      egress: host.egress({
        hosts: ["127.0.0.1"],
        credential: { header: "authorization", scheme: "Bearer", credentialRef: config.credentialRef },
      }),
    }),
  });

const REDIRECT = "https://toolreg.example/oauth/callback";
const START = "https://toolreg.example/oauth/start";

let host: ReturnType<typeof createToolkitHost>;
let transport: EgressClient;
let credentials: CredentialStore;
let requests: ConsentStore;
let resolver: CredentialInspector;
let harness: TestHarness;
const alice = { principalId: "alice", runId: "run-1" };

async function start(options: { auth?: "token-or-oauth" | "token"; consent?: boolean } = {}) {
  const tools = await toolkitWith(options.auth ?? "token-or-oauth").build({ baseUrl: vendor.url }, host);
  const clients = new OAuthClients({
    providers: {
      notes: {
        authorizeUrl: "https://notes.example/authorize",
        tokenUrl: `${vendor.url}/oauth/token`,
        issuer: "https://notes.example",
      },
    },
    apps: { notes: { clientId: "toolreg-app", clientSecret: "app-secret" } },
    credentials,
  });
  resolver = chainCredentialResolvers(
    createStoreCredentialResolver({ store: credentials, clients, transport }),
  );
  harness = createTestHarness(tools, {
    clock: Date.now,
    ...(options.consent === false
      ? {}
      : {
          consent: {
            requests,
            credentials,
            resolver,
            clients,
            transport,
            redirectUri: REDIRECT,
            consentLink: (consentId: string) => `${START}/${consentId}`,
          },
        }),
  });
}

const contextOf = (overrides: Parameters<TestHarness["context"]>[0] = {}) =>
  harness.context({ ...alice, credentials: resolver, ...overrides });

/** Where the consent's start link sends its own user: the vendor's authorization URL. */
async function authorizationOf(parked: Parked, principalId = alice.principalId): Promise<string> {
  const authorization = await harness.seam.consentAuthorization(
    { tenantId: "t1", principalId },
    parked.consentId,
  );
  if (!authorization.ok) throw new Error(authorization.message);
  return authorization.url;
}

/**
 * The user opens the start link, consents at the vendor and is sent back with a code, in the browser the
 * start link bound to the consent.
 */
async function consent(
  parked: Parked,
  scopes?: string,
): Promise<{ state: string; code: string; consentIds: string[]; issuer: string }> {
  const url = new URL(await authorizationOf(parked));
  const params = Object.fromEntries(url.searchParams);
  expect(params).toMatchObject({
    response_type: "code",
    client_id: "toolreg-app",
    redirect_uri: REDIRECT,
    code_challenge_method: "S256",
  });
  const code = `code-${randomUUID()}`;
  vendor.codes.set(code, {
    challenge: params.code_challenge ?? "",
    scopes: scopes ?? params.scope ?? "",
    redirectUri: params.redirect_uri ?? "",
  });
  // The vendor names itself on the way back (RFC 9207), as its declared issuer.
  return { state: params.state ?? "", code, consentIds: [parked.consentId], issuer: "https://notes.example" };
}

interface Parked {
  parkedCallId: string;
  consentId: string;
  consentUrl: string;
  problem: string;
}

function parkedOf(envelope: Envelope) {
  expect(envelope).toMatchObject({ ok: false, error: { code: "auth_required", retryable: false } });
  const details = (envelope.ok ? {} : envelope.error.details) as Record<string, string>;
  return details as unknown as Parked;
}

beforeEach(() => {
  host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  transport = createEgressClient({ policy: { allowAddressClasses: ["loopback"] } });
  credentials = createMemoryCredentialStore();
  requests = createMemoryConsentStore();
  vendor.apiRequests = [];
  vendor.tokenRequests = [];
});
afterEach(async () => {
  await host.close();
  await transport.close();
});

describe("consent at the seam", () => {
  it("parks an unconnected call with an authorization URL, sending nothing and claiming no key", async () => {
    await start();
    const context = contextOf();
    const parked = await harness.seam.call(context, "notes_get_note", { id: "n-1" });
    const details = parkedOf(parked);
    expect(details.problem).toBe("missing");
    const url = new URL(await authorizationOf(details));
    expect(url.origin + url.pathname).toBe("https://notes.example/authorize");
    expect(url.searchParams.get("scope")).toBe("notes:read");
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The model is given toolreg's start link, never the vendor's URL with its live state.
    expect(details.consentUrl).toBe(`${START}/${details.consentId}`);
    expect(parked.ok || parked.error.message).toContain(details.consentUrl);
    expect(JSON.stringify(parked)).not.toContain(url.searchParams.get("state"));
    expect(JSON.stringify(parked)).not.toContain("notes.example/authorize");
    expect(vendor.apiRequests).toEqual([]);
    const key = `call:${JSON.stringify([context.runId, context.toolCallId])}`;
    expect(await harness.stores.idempotency.get({ tenantId: "t1", key })).toBeUndefined();
    // A duplicate of the call finds it parked, under the same consent.
    const again = parkedOf(await harness.seam.call(context, "notes_get_note", { id: "n-1" }));
    expect(again).toMatchObject({ parkedCallId: details.parkedCallId, consentId: details.consentId });
  });

  it("resumes every call waiting on the consent once, after the code is exchanged with its verifier", async () => {
    await start();
    const [first, second] = await Promise.all([
      harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" }),
      harness.seam.call(contextOf(), "notes_get_note", { id: "n-2" }),
    ]);
    const one = parkedOf(first as Envelope);
    const two = parkedOf(second as Envelope);
    expect(two.consentId).toBe(one.consentId);
    expect(two.parkedCallId).not.toBe(one.parkedCallId);

    const callback = await consent(one);
    const completion = await harness.seam.completeConsent(callback);
    expect(completion).toMatchObject({ ok: true, principalId: "alice", credentialRef: "notes" });
    expect(vendor.tokenRequests).toHaveLength(1);
    expect(vendor.tokenRequests[0]?.get("grant_type")).toBe("authorization_code");
    const resumed = completion.ok ? completion.resumed : [];
    const envelopeOf = (parkedCallId: string) =>
      resumed.find((call) => call.parkedCallId === parkedCallId)?.envelope;
    expect(resumed).toHaveLength(2);
    expect(envelopeOf(one.parkedCallId)).toEqual({
      ok: true,
      content: '{"id":"n-1","text":"hello"}',
      data: { id: "n-1", text: "hello" },
    });
    expect(envelopeOf(two.parkedCallId)).toMatchObject({ ok: true, data: { id: "n-2" } });
    expect(vendor.apiRequests.map((request) => request.path).sort()).toEqual([
      "/api/notes/n-1",
      "/api/notes/n-2",
    ]);
    expect(await credentials.list({ tenantId: "t1" })).toMatchObject([
      { principalId: "alice", ref: "notes", kind: "oauth", provider: "notes", scopes: ["notes:read"] },
    ]);

    // The state works once; asking after the call again answers the same, running nothing.
    expect(await harness.seam.completeConsent(callback)).toMatchObject({
      ok: false,
      reason: "unknown_state",
    });
    expect(
      await harness.seam.consentAuthorization({ tenantId: "t1", principalId: "alice" }, one.consentId),
    ).toMatchObject({ ok: false });
    expect(await harness.seam.resumeParked(contextOf(), one.parkedCallId)).toEqual(
      envelopeOf(one.parkedCallId),
    );
    expect(
      await harness.seam.resumeParked(contextOf({ principalId: "mallory" }), one.parkedCallId),
    ).toMatchObject({
      ok: false,
      error: { code: "not_authorized" },
    });
    expect(vendor.apiRequests).toHaveLength(2);
    // Connected: the next call runs at once.
    expect(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-3" })).toMatchObject({ ok: true });
    const audit = await harness.stores.audit.list({ tenantId: "t1", limit: 50 });
    const grant = audit.find((event) => event.kind === "consent-grant");
    expect(grant?.message).toBe('alice connected notes as "notes" with notes:read');
    expect(JSON.stringify(audit)).not.toContain([...vendor.tokens.keys()][0]);
  });

  it("asks again for a scope the connection lacks, keeping those it has", async () => {
    await start();
    const parked = parkedOf(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" }));
    await harness.seam.completeConsent(await consent(parked));
    const write = parkedOf(await harness.seam.call(contextOf(), "notes_add_note", { text: "hi" }));
    expect(write.problem).toBe("scopes");
    expect(new URL(await authorizationOf(write)).searchParams.get("scope")).toBe("notes:read notes:write");
    // The user grants less than asked: the call stays parked, with a new link.
    const completion = await harness.seam.completeConsent(await consent(write, "notes:read"));
    const again = completion.ok ? completion.resumed[0]?.envelope : undefined;
    expect(parkedOf(again as Envelope)).toMatchObject({
      parkedCallId: write.parkedCallId,
      problem: "scopes",
    });
    expect(vendor.apiRequests.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("sends a consented write on to approval, and runs it once when approved", async () => {
    await start();
    const context = contextOf();
    const parked = parkedOf(await harness.seam.call(context, "notes_add_note", { text: "hi" }));
    const completion = await harness.seam.completeConsent(await consent(parked));
    const afterConsent = completion.ok ? completion.resumed[0]?.envelope : undefined;
    const approvalId = approvalIdOf(afterConsent as Envelope);
    expect(approvalId).toBeDefined();
    expect(vendor.apiRequests).toEqual([]);
    await harness.seam.approve({ tenantId: "t1", approvalId: approvalId as string, by: "reviewer" });
    const ran = await harness.seam.resume(context, approvalId as string);
    expect(ran).toMatchObject({ ok: true, data: { id: "n-new", text: "hi" } });
    expect(await harness.seam.resume(context, approvalId as string)).toEqual(ran);
    expect(await harness.seam.resumeParked(context, parked.parkedCallId)).toEqual(afterConsent);
    expect(vendor.apiRequests.filter((request) => request.method === "POST")).toHaveLength(1);
  });

  it("gives up a token the vendor refuses (401), so the next call is parked for consent again", async () => {
    await start();
    const parked = parkedOf(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" }));
    await harness.seam.completeConsent(await consent(parked));
    vendor.tokens.clear();
    const refused = await harness.seam.call(contextOf(), "notes_get_note", { id: "n-2" });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: "auth_required",
        details: { credentialRef: "notes", status: 401, credentialRejected: true },
      },
    });
    expect(refused.ok || refused.error.message).toContain("did nothing");
    expect(await credentials.get({ tenantId: "t1", principalId: "alice", ref: "notes" })).toMatchObject({
      secrets: undefined,
      revokedReason: "notes answered 401 to notes_get_note",
    });
    expect(parkedOf(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-3" })).problem).toBe(
      "revoked",
    );
  });

  it("binds a consent to its own user: another principal cannot open it, another browser cannot complete it", async () => {
    await start();
    const parked = parkedOf(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" }));
    expect(
      await harness.seam.consentAuthorization({ tenantId: "t1", principalId: "mallory" }, parked.consentId),
    ).toMatchObject({ ok: false, message: expect.stringContaining("not for mallory") });
    expect(
      await harness.seam.consentAuthorization({ tenantId: "t2", principalId: "alice" }, parked.consentId),
    ).toMatchObject({ ok: false });
    // The vendor sends back a browser that did not start this consent (it was handed alice's URL).
    const handedOver = await consent(parked);
    const elsewhere = await harness.seam.completeConsent({ ...handedOver, consentIds: [randomUUID()] });
    expect(elsewhere).toMatchObject({
      ok: false,
      reason: "unknown_state",
      message: expect.stringContaining("not started in this browser"),
    });
    expect(vendor.tokenRequests).toEqual([]);
    expect(await credentials.list({ tenantId: "t1" })).toEqual([]);
    // Alice's own browser still completes it: the refused callback spent nothing.
    const completion = await harness.seam.completeConsent(handedOver);
    expect(completion).toMatchObject({ ok: true, principalId: "alice" });
  });

  it("refuses an answer naming another authorization server (RFC 9207), exchanging nothing", async () => {
    await start();
    const parked = parkedOf(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" }));
    const mixedUp = await harness.seam.completeConsent({
      ...(await consent(parked)),
      issuer: "https://evil.example",
    });
    expect(mixedUp).toMatchObject({ ok: false, reason: "wrong_issuer", consentId: parked.consentId });
    // A server known to name itself that answers without `iss` is refused the same way (RFC 9207 §2.4).
    const unnamed = parkedOf(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-3" }));
    expect(
      await harness.seam.completeConsent({ ...(await consent(unnamed)), issuer: undefined }),
    ).toMatchObject({ ok: false, reason: "wrong_issuer", message: expect.stringContaining("no issuer") });
    expect(vendor.tokenRequests).toEqual([]);
    expect(await credentials.list({ tenantId: "t1" })).toEqual([]);
    // Its own server's answer goes through.
    const next = parkedOf(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-2" }));
    const completion = await harness.seam.completeConsent({
      ...(await consent(next)),
      issuer: "https://notes.example",
    });
    expect(completion).toMatchObject({ ok: true });
  });

  it("counts a scope the vendor implies by a broader one as granted, asking for no consent", async () => {
    await start();
    await credentials.put({
      tenantId: "t1",
      principalId: "alice",
      ref: "notes",
      kind: "oauth",
      provider: "notes",
      scopes: ["notes:admin"],
      secrets: { accessToken: "admin-token" },
      connectedBy: "alice",
      at: 1,
    });
    vendor.tokens.set("admin-token", ["notes:admin", "notes:write", "notes:read"]);
    expect(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" })).toMatchObject({ ok: true });
    expect(vendor.apiRequests.map((request) => request.token)).toEqual(["admin-token"]);
  });

  it("ends the waiting calls of a user who declined", async () => {
    await start();
    const parked = parkedOf(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" }));
    const { state, consentIds, issuer } = await consent(parked);
    expect(
      await harness.seam.completeConsent({ state, consentIds, issuer, error: "access_denied" }),
    ).toMatchObject({
      ok: false,
      reason: "declined",
    });
    expect(await harness.seam.resumeParked(contextOf(), parked.parkedCallId)).toMatchObject({
      ok: false,
      error: { code: "approval_denied", message: expect.stringContaining("access_denied") },
    });
    expect(vendor.tokenRequests).toEqual([]);
  });

  it("keeps the calls waiting when the code is refused, for the next consent to resume", async () => {
    await start();
    const parked = parkedOf(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" }));
    const { state, consentIds, issuer } = await consent(parked);
    expect(await harness.seam.completeConsent({ state, consentIds, issuer, code: "forged" })).toMatchObject({
      ok: false,
      reason: "exchange_failed",
      message: expect.stringContaining("invalid_grant"),
    });
    const next = parkedOf(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-2" }));
    expect(next.consentId).not.toBe(parked.consentId);
    const completion = await harness.seam.completeConsent(await consent(next));
    expect(completion.ok ? completion.resumed.map((call) => call.parkedCallId).sort() : []).toEqual(
      [parked.parkedCallId, next.parkedCallId].sort(),
    );
  });

  it("fails a token-only toolkit's call naming the credential to configure, and parks nothing", async () => {
    await start({ auth: "token" });
    const failed = await harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" });
    expect(failed).toMatchObject({
      ok: false,
      error: { code: "auth_required", details: { credentialRef: "notes" } },
    });
    expect(failed.ok || failed.error.message).toContain("toolreg credentials connect notes");
    expect(failed.ok || failed.error.details).not.toHaveProperty("consentUrl");
    await credentials.put({
      tenantId: "t1",
      ref: "notes",
      kind: "token",
      provider: "notes",
      secrets: { accessToken: "pasted" },
      connectedBy: "ops",
      at: 1,
    });
    vendor.tokens.set("pasted", []);
    expect(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" })).toMatchObject({ ok: true });
    expect(vendor.apiRequests[0]?.token).toBe("pasted");
  });

  it("without consent configured, turns egress's unusable credential into auth_required naming it", async () => {
    await start({ consent: false });
    const failed = await harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" });
    expect(failed).toMatchObject({
      ok: false,
      error: { code: "auth_required", details: { credentialRef: "notes" } },
    });
    expect(failed.ok || failed.error.message).toContain("nothing was sent");
    expect(vendor.apiRequests).toEqual([]);
  });

  it("refuses a parked call's key reused for other arguments", async () => {
    await start();
    const context = contextOf({ idempotencyKey: "client-key-1" });
    parkedOf(await harness.seam.call(context, "notes_get_note", { id: "n-1" }));
    expect(await harness.seam.call(context, "notes_get_note", { id: "n-2" })).toMatchObject({
      ok: false,
      error: { code: "idempotency_conflict" },
    });
  });

  it("reports a vendor failure that is not about the credential as it is, keeping the credential", async () => {
    await start();
    const parked = parkedOf(await harness.seam.call(contextOf(), "notes_get_note", { id: "n-1" }));
    await harness.seam.completeConsent(await consent(parked));
    const broken = await harness.seam.call(contextOf(), "notes_get_note", { id: "n-broken" });
    expect(broken).toMatchObject({ ok: false, error: { code: "upstream_error", retryable: true } });
    expect(
      (await credentials.get({ tenantId: "t1", principalId: "alice", ref: "notes" }))?.revokedAt,
    ).toBeUndefined();
  });
});
