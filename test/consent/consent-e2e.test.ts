/**
 * @module Consent end to end, over real HTTP on 127.0.0.1: toolreg's registry server (SQLite, credentials
 * sealed under a key), a real OAuth provider (oidc-provider 9) whose login and consent a browser completes,
 * and a vendor API that accepts only the tokens that provider issued. Nothing in toolreg is mocked.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEgressClient, type EgressClient } from "../../src/egress/egress-client.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import type { Envelope } from "../../src/seam/envelope.js";
import { type Listening, listen } from "../../src/server/listen.js";
import { openRegistryServer, type RegistryServer } from "../../src/server/registry-server.js";
import { createToolkitHost } from "../../src/tools/toolkit/toolkit-host.js";
import { completeConsent } from "./browser.js";
import { type NotesApiFake, startNotesApi } from "./notes-api-fake.js";
import { notesToolkit } from "./notes-toolkit.js";
import { type ProviderFixture, startProvider } from "./oidc-provider-fixture.js";

const TENANT = "acme";

let provider: ProviderFixture;
let api: NotesApiFake;
let server: RegistryServer;
let listening: Listening;
let transport: EgressClient;
let toolkitHost: ReturnType<typeof createToolkitHost>;
let directory: string;
const keys: Record<string, string> = {};

beforeAll(async () => {
  provider = await startProvider();
  api = await startNotesApi(provider);
  directory = mkdtempSync(join(tmpdir(), "toolreg-consent-"));
  // Loopback is allowed for the test's own servers alone: in a deployment the vendor is a public host.
  toolkitHost = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  transport = createEgressClient({ policy: { allowAddressClasses: ["loopback"] } });
  const tools = await notesToolkit({
    authorizeUrl: provider.authorizeUrl,
    tokenUrl: provider.tokenUrl,
  }).build({ baseUrl: api.url }, toolkitHost);
  let publicUrl = "";
  server = openRegistryServer({
    registry: new ToolRegistry(tools),
    storePath: join(directory, "toolreg.db"),
    logger: silentLogger,
    credentials: {
      key: randomBytes(32),
      publicUrl: () => publicUrl,
      transport,
      apps: { notes: provider.client },
    },
  });
  listening = await listen(server, { port: 0, host: "127.0.0.1" });
  publicUrl = listening.url;
  provider.start(`${listening.url}/oauth/callback`);
  for (const principalId of ["alice", "bob", "carol"]) {
    keys[principalId] = server.auth.createKey({ tenantId: TENANT, principalId, label: "consent test" }).key;
  }
});

afterAll(async () => {
  await listening?.stop(1_000);
  server?.close();
  await toolkitHost?.close();
  await transport?.close();
  await api?.close();
  await provider?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** A call over the API, as an agent makes it; the run and tool-call ids fix its idempotency key. */
async function invoke(
  principal: string,
  tool: string,
  input: unknown,
  ids: { run: string; call: string },
): Promise<{ status: number; envelope: Envelope }> {
  const response = await fetch(`${listening.url}/api/v1/tools/${tool}/invoke`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${keys[principal]}`,
      "content-type": "application/json",
      "x-toolreg-run-id": ids.run,
      "x-toolreg-tool-call-id": ids.call,
    },
    body: JSON.stringify(input),
  });
  return { status: response.status, envelope: (await response.json()) as Envelope };
}

async function resume(
  principal: string,
  parkedCallId: string,
): Promise<{ status: number; envelope: Envelope }> {
  const response = await fetch(`${listening.url}/api/v1/consents/${parkedCallId}/resume`, {
    method: "POST",
    headers: { authorization: `Bearer ${keys[principal]}` },
  });
  return { status: response.status, envelope: (await response.json()) as Envelope };
}

interface Parked {
  parkedCallId: string;
  consentId: string;
  authorizationUrl: string;
  problem: string;
}

function parkedOf(answer: { status: number; envelope: Envelope }): Parked {
  expect(answer.status).toBe(202);
  expect(answer.envelope).toMatchObject({ ok: false, error: { code: "auth_required" } });
  const details = (answer.envelope.ok ? {} : answer.envelope.error.details) as unknown as Parked;
  expect(details.authorizationUrl.startsWith(`${provider.authorizeUrl}?`)).toBe(true);
  return details;
}

const requestsOf = (subject: string) => api.requests.filter((request) => request.subject === subject);
const keyOf = (run: string, call: string) => `call:${JSON.stringify([run, call])}`;

describe("consent against a real OAuth provider", () => {
  it("parks an unconnected call, and runs it exactly once after the user consents at the provider", async () => {
    const ids = { run: "run-alice", call: "call-1" };
    const parked = parkedOf(await invoke("alice", "notes_get_note", { id: "n-1" }, ids));
    expect(parked.problem).toBe("missing");
    const authorization = new URL(parked.authorizationUrl).searchParams;
    expect(authorization.get("code_challenge_method")).toBe("S256");
    expect(authorization.get("redirect_uri")).toBe(`${listening.url}/oauth/callback`);
    // Nothing reached the vendor, and the call's key was not claimed, let alone left unknown.
    expect(api.requests).toEqual([]);
    expect(
      await server.deps.stores.idempotency.get({ tenantId: TENANT, key: keyOf(ids.run, ids.call) }),
    ).toBe(undefined);

    const page = await completeConsent(parked.authorizationUrl, {
      login: "alice",
      password: "alice-password",
    });
    expect(page.visited.some((step) => step.startsWith(`POST ${provider.issuer}/interaction/`))).toBe(true);
    expect(page.url.startsWith(`${listening.url}/oauth/callback?`)).toBe(true);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Connected notes");
    expect(page.text).toContain("notes_get_note ran.");
    expect(requestsOf("alice")).toEqual([
      { method: "GET", path: "/notes/n-1", subject: "alice", status: 200 },
    ]);

    const first = await resume("alice", parked.parkedCallId);
    expect(first).toEqual({
      status: 200,
      envelope: {
        ok: true,
        content: '{"id":"n-1","owner":"alice","text":"hello"}',
        data: { id: "n-1", owner: "alice", text: "hello" },
      },
    });
    expect(await resume("alice", parked.parkedCallId)).toEqual(first);
    // The resume ran under the call's own key, which now holds the result; the vendor saw one request in all.
    expect(requestsOf("alice")).toHaveLength(1);
    expect(
      await server.deps.stores.idempotency.get({ tenantId: TENANT, key: keyOf(ids.run, ids.call) }),
    ).toMatchObject({ status: "completed" });

    // The state was used once: the same callback again stores and runs nothing.
    const replayed = await fetch(page.url);
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain("already used");
    expect(await resume("bob", parked.parkedCallId)).toMatchObject({
      status: 403,
      envelope: { ok: false, error: { code: "not_authorized" } },
    });
    const stored = await server.deps.credentialStore?.list({ tenantId: TENANT, principalId: "alice" });
    expect(stored).toMatchObject([
      { ref: "notes", kind: "oauth", provider: "notes", scopes: ["notes:read"] },
    ]);
  });

  it("lets two parallel calls of one user share one consent, each run once", async () => {
    const [one, two] = await Promise.all([
      invoke("bob", "notes_get_note", { id: "n-1" }, { run: "run-bob", call: "call-1" }),
      invoke("bob", "notes_get_note", { id: "n-2" }, { run: "run-bob", call: "call-2" }),
    ]);
    const first = parkedOf(one);
    const second = parkedOf(two);
    expect(second.consentId).toBe(first.consentId);
    expect(second.authorizationUrl).toBe(first.authorizationUrl);
    expect(second.parkedCallId).not.toBe(first.parkedCallId);

    const page = await completeConsent(first.authorizationUrl, { login: "bob", password: "bob-password" });
    expect(page.status).toBe(200);
    expect(page.text.match(/notes_get_note ran\./g)).toHaveLength(2);
    expect(
      requestsOf("bob")
        .map((request) => request.path)
        .sort(),
    ).toEqual(["/notes/n-1", "/notes/n-2"]);
    expect((await resume("bob", second.parkedCallId)).envelope).toMatchObject({
      ok: true,
      data: { id: "n-2" },
    });
    expect(requestsOf("bob")).toHaveLength(2);
  });

  it("parks the next call for consent again once the provider revoked the token", async () => {
    const parked = parkedOf(
      await invoke("carol", "notes_get_note", { id: "n-1" }, { run: "run-carol", call: "c-1" }),
    );
    await completeConsent(parked.authorizationUrl, { login: "carol", password: "carol-password" });
    expect(requestsOf("carol")).toHaveLength(1);

    const stored = await server.deps.credentialStore?.list({ tenantId: TENANT, principalId: "carol" });
    expect(stored?.[0]?.revokedAt).toBeUndefined();
    // The user takes access back at the vendor (RFC 7009); toolreg hears of it only through the API's 401.
    const token = await sealedTokenOf("carol");
    await provider.revoke(token);
    const refused = await invoke("carol", "notes_get_note", { id: "n-2" }, { run: "run-carol", call: "c-2" });
    expect(refused).toMatchObject({
      status: 202,
      envelope: {
        ok: false,
        error: { code: "auth_required", details: { status: 401, credentialRejected: true } },
      },
    });
    expect(api.requests.filter((request) => request.status === 401)).toHaveLength(1);

    const again = parkedOf(
      await invoke("carol", "notes_get_note", { id: "n-3" }, { run: "run-carol", call: "c-3" }),
    );
    expect(again.problem).toBe("revoked");
    expect(again.consentId).not.toBe(parked.consentId);
    const page = await completeConsent(again.authorizationUrl, {
      login: "carol",
      password: "carol-password",
    });
    expect(page.text).toContain("notes_get_note ran.");
    expect(requestsOf("carol").map((request) => `${request.path} ${request.status}`)).toEqual([
      "/notes/n-1 200",
      "/notes/n-3 200",
    ]);
  });

  it("refuses a callback whose state it never issued, and a user who declines ends the waiting call", async () => {
    const forged = await fetch(`${listening.url}/oauth/callback?code=abc&state=${"x".repeat(43)}`);
    expect(forged.status).toBe(400);
    expect(forged.headers.get("cache-control")).toBe("no-store");

    const parked = parkedOf(
      await invoke("alice", "notes_add_note", { text: "hi" }, { run: "run-alice", call: "w-1" }),
    );
    // Alice's connection has notes:read only: the write asks for notes:write as well.
    expect(parked.problem).toBe("scopes");
    expect(new URL(parked.authorizationUrl).searchParams.get("scope")).toBe("notes:read notes:write");
    const state = new URL(parked.authorizationUrl).searchParams.get("state") ?? "";
    const declined = await fetch(`${listening.url}/oauth/callback?error=access_denied&state=${state}`);
    expect(declined.status).toBe(400);
    expect(await resume("alice", parked.parkedCallId)).toMatchObject({
      status: 403,
      envelope: { ok: false, error: { code: "approval_denied" } },
    });
    expect(api.requests.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("lists connections over HTTP as metadata, each user seeing their own, and revokes only theirs", async () => {
    const token = await sealedTokenOf("alice");
    const as = (principal: string) => ({
      authorization: `Bearer ${keys[principal]}`,
      "content-type": "application/json",
    });
    const listed = await fetch(`${listening.url}/api/v1/credentials`, { headers: as("alice") });
    const text = await listed.text();
    expect(listed.status).toBe(200);
    expect(text).not.toContain(token);
    const { credentials } = JSON.parse(text) as { credentials: { principalId?: string; ref: string }[] };
    expect(credentials.map((credential) => credential.principalId)).toEqual(["alice"]);
    const revoke = (principal: string, body: unknown) =>
      fetch(`${listening.url}/api/v1/credentials/revoke`, {
        method: "POST",
        headers: as(principal),
        body: JSON.stringify(body),
      });
    expect((await revoke("alice", { ref: "notes", principalId: "bob" })).status).toBe(403);
    const revoked = await revoke("alice", { ref: "notes" });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ principalId: "alice", revokedReason: "revoked by alice" });
    // Revoked: alice's next call asks for consent again.
    const again = parkedOf(
      await invoke("alice", "notes_get_note", { id: "n-9" }, { run: "run-alice", call: "r-9" }),
    );
    expect(again.problem).toBe("revoked");
  });
});

/** The token toolreg stored for a user, read the way only the resolver reads it. */
async function sealedTokenOf(principalId: string): Promise<string> {
  const token = await server.deps.credentials?.resolve("notes", { tenantId: TENANT, principalId });
  if (!token) throw new Error(`no token for ${principalId}`);
  return token;
}
