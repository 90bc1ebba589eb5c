/**
 * @module Consent end to end, over real HTTP on 127.0.0.1: toolreg's registry server (SQLite, credentials
 * sealed under a key), a real OAuth provider (oidc-provider 9) whose login and consent a browser completes,
 * and a vendor API that accepts only the tokens that provider issued. Nothing in toolreg is mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Envelope } from "../../src/seam/envelope.js";
import type { RegistryServer } from "../../src/server/registry-server.js";
import { createToolkitHost } from "../../src/tools/toolkit/toolkit-host.js";
import { completeConsent } from "./browser.js";
import { type ConsentServer, startConsentServer } from "./consent-server.js";
import { type NotesApiFake, startNotesApi } from "./notes-api-fake.js";
import { notesToolkit } from "./notes-toolkit.js";
import { type ProviderFixture, startProvider } from "./oidc-provider-fixture.js";

const TENANT = "acme";

let provider: ProviderFixture;
let api: NotesApiFake;
let consent: ConsentServer;
let server: RegistryServer;
let origin: string;
let toolkitHost: ReturnType<typeof createToolkitHost>;

beforeAll(async () => {
  provider = await startProvider();
  api = await startNotesApi(provider);
  // Loopback is allowed for the test's own servers alone: in a deployment the vendor is a public host.
  toolkitHost = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await notesToolkit({
    authorizeUrl: provider.authorizeUrl,
    tokenUrl: provider.tokenUrl,
    // oidc-provider sends `iss` back (RFC 9207): every consent below passes the issuer check.
    issuer: provider.issuer,
  }).build({ baseUrl: api.url }, toolkitHost);
  consent = await startConsentServer({
    tools,
    apps: { notes: provider.client },
    tenantId: TENANT,
    principals: ["alice", "bob", "carol", "dave"],
  });
  ({ server, url: origin } = consent);
  provider.start(`${origin}/oauth/callback`);
});

afterAll(async () => {
  await consent?.close();
  await toolkitHost?.close();
  await api?.close();
  await provider?.close();
});

const invoke: ConsentServer["invoke"] = (...call) => consent.invoke(...call);
const resume: ConsentServer["resume"] = (...call) => consent.resume(...call);
const browserOf: ConsentServer["browserOf"] = (principal) => consent.browserOf(principal);

interface Parked {
  parkedCallId: string;
  consentId: string;
  consentUrl: string;
  problem: string;
}

function parkedOf(answer: { status: number; envelope: Envelope }): Parked {
  expect(answer.status).toBe(202);
  expect(answer.envelope).toMatchObject({ ok: false, error: { code: "auth_required" } });
  const details = (answer.envelope.ok ? {} : answer.envelope.error.details) as unknown as Parked;
  expect(details.consentUrl).toBe(`${origin}/oauth/start/${details.consentId}`);
  // The provider's URL, with its live state, reaches neither the model nor the audit trail.
  expect(JSON.stringify(answer.envelope)).not.toContain(provider.issuer);
  return details;
}

/** The user opens the consent link in their signed-in browser and allows access at the provider. */
async function consentAs(principal: string, parked: Parked) {
  return completeConsent(
    parked.consentUrl,
    { login: principal, password: `${principal}-password` },
    await browserOf(principal),
  );
}

/** The start link opened by `principal`'s browser: where it sends them and the cookie that binds the consent. */
async function startAs(principal: string, parked: Parked) {
  const jars = await browserOf(principal);
  const session = jars.get(origin)?.get("toolreg_session");
  const response = await fetch(parked.consentUrl, {
    redirect: "manual",
    headers: { cookie: `toolreg_session=${session}` },
  });
  const binding = response.headers.getSetCookie().find((cookie) => cookie.startsWith("toolreg_consent_"));
  return {
    status: response.status,
    location: response.headers.get("location") ?? "",
    setCookie: binding ?? "",
    cookie: (binding ?? "").split(";")[0] ?? "",
  };
}

const requestsOf = (subject: string) => api.requests.filter((request) => request.subject === subject);
const keyOf = (run: string, call: string) => `call:${JSON.stringify([run, call])}`;

describe("consent against a real OAuth provider", () => {
  it("parks an unconnected call, and runs it exactly once after the user consents at the provider", async () => {
    const ids = { run: "run-alice", call: "call-1" };
    const parked = parkedOf(await invoke("alice", "notes_get_note", { id: "n-1" }, ids));
    expect(parked.problem).toBe("missing");
    // Nothing reached the vendor, and the call's key was not claimed, let alone left unknown.
    expect(api.requests).toEqual([]);
    expect(
      await server.deps.stores.idempotency.get({ tenantId: TENANT, key: keyOf(ids.run, ids.call) }),
    ).toBe(undefined);

    const page = await consentAs("alice", parked);
    const sent = page.visited.find((step) => step.startsWith(`GET ${provider.authorizeUrl}?`)) ?? "";
    const authorization = new URL(sent.split(" ")[1] ?? "").searchParams;
    expect(authorization.get("code_challenge_method")).toBe("S256");
    expect(authorization.get("redirect_uri")).toBe(`${origin}/oauth/callback`);
    expect(page.visited[0]).toBe(`GET ${parked.consentUrl} → 303`);
    expect(page.visited.some((step) => step.startsWith(`POST ${provider.issuer}/interaction/`))).toBe(true);
    expect(page.url.startsWith(`${origin}/oauth/callback?`)).toBe(true);
    expect(new URL(page.url).searchParams.get("iss")).toBe(provider.issuer);
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
    expect(second.consentUrl).toBe(first.consentUrl);
    expect(second.parkedCallId).not.toBe(first.parkedCallId);

    const page = await consentAs("bob", first);
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
    await consentAs("carol", parked);
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
    const page = await consentAs("carol", again);
    expect(page.text).toContain("notes_get_note ran.");
    expect(requestsOf("carol").map((request) => `${request.path} ${request.status}`)).toEqual([
      "/notes/n-1 200",
      "/notes/n-3 200",
    ]);
  });

  it("refuses a callback whose state it never issued, and a user who declines ends the waiting call", async () => {
    const forged = await fetch(`${origin}/oauth/callback?code=abc&state=${"x".repeat(43)}`);
    expect(forged.status).toBe(400);
    expect(forged.headers.get("cache-control")).toBe("no-store");

    const parked = parkedOf(
      await invoke("alice", "notes_add_note", { text: "hi" }, { run: "run-alice", call: "w-1" }),
    );
    // Alice's connection has notes:read only: the write asks for notes:write as well.
    expect(parked.problem).toBe("scopes");
    const started = await startAs("alice", parked);
    expect(started.status).toBe(303);
    expect(new URL(started.location).searchParams.get("scope")).toBe("notes:read notes:write");
    expect(started.setCookie).toMatch(/; Path=\/oauth\/callback; HttpOnly; SameSite=Lax$/i);
    const state = new URL(started.location).searchParams.get("state") ?? "";
    const iss = encodeURIComponent(provider.issuer);
    const declined = await fetch(`${origin}/oauth/callback?error=access_denied&state=${state}&iss=${iss}`, {
      headers: { cookie: started.cookie },
    });
    expect(declined.status).toBe(400);
    expect(await declined.text()).toContain("Not connected");
    expect(await resume("alice", parked.parkedCallId)).toMatchObject({
      status: 403,
      envelope: { ok: false, error: { code: "approval_denied" } },
    });
    expect(api.requests.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("connects no one through a consent link opened by anyone but its own user", async () => {
    const parked = parkedOf(
      await invoke("dave", "notes_get_note", { id: "n-5" }, { run: "run-dave", call: "mix-1" }),
    );
    // Clicked on another site, the link arrives without the (SameSite=Strict) session: a page whose button
    // posts back from toolreg's own origin, naming no one and sending nowhere.
    const clicked = await fetch(parked.consentUrl, { redirect: "manual" });
    expect(clicked.status).toBe(200);
    const confirm = await clicked.text();
    // The action is relative to the link, so it posts back to it even behind a proxy's path prefix.
    const action = /<form method="post" action="([^"]+)">/.exec(confirm)?.[1] ?? "";
    expect(new URL(action, parked.consentUrl).href).toBe(parked.consentUrl);
    expect(new URL(action, "https://proxy.example/toolreg/oauth/start/x").pathname).toBe(
      `/toolreg/oauth/start/${parked.consentId}`,
    );
    expect(confirm).not.toContain("dave");
    expect(clicked.headers.getSetCookie()).toEqual([]);
    const anonymous = await fetch(parked.consentUrl, { method: "POST", redirect: "manual" });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain("Sign in to toolreg first");
    // The button, pressed in dave's signed-in browser, goes on; a post from another site does not.
    const session = (await browserOf("dave")).get(origin)?.get("toolreg_session");
    const pressed = await fetch(parked.consentUrl, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: `toolreg_session=${session}`, origin: origin },
    });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get("location")?.startsWith(`${provider.authorizeUrl}?`)).toBe(true);
    const crossSite = await fetch(parked.consentUrl, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: `toolreg_session=${session}`, origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie()).toEqual([]);
    // Another user of the tenant, signed in as themselves, is refused it.
    expect(await startAs("alice", parked)).toMatchObject({ status: 403, setCookie: "" });

    // Dave starts his own consent and hands the provider's URL to alice instead of allowing it himself; she
    // signs in at the provider and allows access. Back at toolreg her browser holds no binding for it, so
    // her account is not stored as dave's and his call does not run on it.
    const daves = await startAs("dave", parked);
    expect(daves.status).toBe(303);
    const lured = await completeConsent(daves.location, { login: "alice", password: "alice-password" });
    expect(lured.url.startsWith(`${origin}/oauth/callback?`)).toBe(true);
    expect(lured.status).toBe(400);
    expect(lured.text).toContain("not started in this browser");
    expect(api.requests.filter((request) => request.path === "/notes/n-5")).toEqual([]);
    expect(await server.deps.credentialStore?.list({ tenantId: TENANT, principalId: "dave" })).toEqual([]);
  });

  it("lists connections over HTTP as metadata, each user seeing their own, and revokes only theirs", async () => {
    const token = await sealedTokenOf("alice");
    const as = (principal: string) => ({
      authorization: `Bearer ${consent.keyOf(principal)}`,
      "content-type": "application/json",
    });
    const listed = await fetch(`${origin}/api/v1/credentials`, { headers: as("alice") });
    const text = await listed.text();
    expect(listed.status).toBe(200);
    expect(text).not.toContain(token);
    const { credentials } = JSON.parse(text) as { credentials: { principalId?: string; ref: string }[] };
    expect(credentials.map((credential) => credential.principalId)).toEqual(["alice"]);
    const revoke = (principal: string, body: unknown) =>
      fetch(`${origin}/api/v1/credentials/revoke`, {
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
