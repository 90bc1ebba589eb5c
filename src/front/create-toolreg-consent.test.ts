/**
 * @module `createToolreg` with `consent`: a call to a vendor the user has not connected is parked, the user's
 * consent completes at a token endpoint on 127.0.0.1 that checks PKCE (RFC 7636 §4.6), and the parked call
 * runs once. The seam's consent rules are tested at the seam (consent-desk.test.ts); this holds the front door.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createEgressClient, type EgressClient } from "../egress/egress-client.js";
import { createConsentBinding } from "../seam/consent/consent-binding.js";
import { chainCredentialResolvers } from "../seam/consent/credential-inspector.js";
import { OAuthClients } from "../seam/consent/oauth-clients.js";
import { createStoreCredentialResolver } from "../seam/consent/store-credential-resolver.js";
import type { Envelope } from "../seam/envelope.js";
import { createMemoryConsentStore } from "../stores/memory/consents.js";
import { createMemoryCredentialStore } from "../stores/memory/credentials.js";
import { defineToolkit } from "../tools/toolkit/define-toolkit.js";
import { callOptions } from "../tools/toolkit/egress-call.js";
import { throwIfHttpError } from "../tools/toolkit/upstream-status.js";
import { createToolreg, type Toolreg } from "./create-toolreg.js";

/** The vendor: codes it handed out (with their PKCE challenge), the tokens it issued, the notes it served. */
const vendor = {
  url: "",
  codes: new Map<string, string>(),
  tokens: new Set<string>(),
  served: [] as string[],
};
let server: Server;

async function handle(request: IncomingMessage, response: ServerResponse) {
  const answer = (status: number, value: unknown) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(value));
  };
  if (request.method === "POST" && request.url === "/oauth/token") {
    let text = "";
    for await (const chunk of request) text += chunk;
    const form = new URLSearchParams(text);
    const challenge = vendor.codes.get(form.get("code") ?? "");
    vendor.codes.delete(form.get("code") ?? "");
    const verified = createHash("sha256")
      .update(form.get("code_verifier") ?? "")
      .digest("base64url");
    if (!challenge || challenge !== verified || form.get("client_secret") !== "app-secret") {
      return answer(400, { error: "invalid_grant" });
    }
    const token = `vendor-${randomUUID()}`;
    vendor.tokens.add(token);
    return answer(200, { access_token: token, token_type: "Bearer", expires_in: 3600, scope: "notes:read" });
  }
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
  if (!vendor.tokens.has(token)) return answer(401, { error: "invalid_token" });
  vendor.served.push(request.url ?? "");
  return answer(200, { id: request.url?.split("/").pop(), text: "hello" });
}

beforeAll(async () => {
  server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  vendor.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const notesToolkit = () =>
  defineToolkit({
    id: "notes",
    version: "0.1.0",
    package: "toolreg-test-notes",
    description: "A notes service, for tests.",
    config: z.strictObject({}),
    auth: {
      kind: "oauth",
      header: "authorization",
      scheme: "Bearer",
      oauth: { authorizeUrl: "https://notes.example/authorize", tokenUrl: `${vendor.url}/oauth/token` },
    },
    tools: [
      {
        name: "notes_get_note",
        description: "Reads one note by id.",
        category: "productivity",
        effect: "read",
        input: z.strictObject({ id: z.string().regex(/^n-[0-9]{1,4}$/) }),
        oauthScopes: ["notes:read"],
        async run(input: { id: string }, context, egress: EgressClient) {
          const response = await egress.request(`${vendor.url}/notes/${input.id}`, callOptions(context));
          throwIfHttpError(response);
          return { data: JSON.parse(response.body.toString()) };
        },
      },
    ],
    bind: (_config, host) =>
      host.egress({
        hosts: ["127.0.0.1"],
        credential: { header: "authorization", scheme: "Bearer", credentialRef: "notes" },
      }),
  });

const ada = { tenantId: "acme", principalId: "ada" };
let toolreg: Toolreg | undefined;
let transport: EgressClient | undefined;
afterEach(async () => {
  await toolreg?.close(0);
  await transport?.close();
  toolreg = undefined;
});

async function withConsent(options: Parameters<typeof createToolreg>[0] = {}): Promise<Toolreg> {
  transport = createEgressClient({ policy: { allowAddressClasses: ["loopback"] } });
  const credentials = createMemoryCredentialStore();
  const clients = new OAuthClients({
    providers: {
      notes: { authorizeUrl: "https://notes.example/authorize", tokenUrl: `${vendor.url}/oauth/token` },
    },
    apps: { notes: { clientId: "toolreg-app", clientSecret: "app-secret" } },
  });
  return createToolreg({
    toolkits: [notesToolkit()],
    metaTools: false,
    egress: { allowAddressClasses: ["loopback"] },
    consent: {
      requests: createMemoryConsentStore(),
      credentials,
      resolver: chainCredentialResolvers(
        createStoreCredentialResolver({ store: credentials, clients, transport }),
      ),
      clients,
      transport,
      redirectUri: "https://host.example/oauth/callback",
      consentLink: (consentId) => `https://host.example/oauth/start/${consentId}`,
    },
    ...options,
  });
}

describe("createToolreg with consent", () => {
  it("parks a call for its user's consent and runs it once they consent, for them alone", async () => {
    toolreg = await withConsent();
    const parked = await toolreg.call(ada, "notes_get_note", { id: "n-1" });
    expect(parked).toMatchObject({ ok: false, error: { code: "auth_required" } });
    const { parkedCallId, consentId, consentUrl } = (parked as Extract<Envelope, { ok: false }>).error
      .details as Record<string, string>;
    expect(consentUrl).toBe(`https://host.example/oauth/start/${consentId}`);
    expect(vendor.served).toEqual([]);

    // Another user's browser gets no authorization URL; the caller's does, and consents at the vendor.
    expect(
      await toolreg.consentAuthorization({ tenantId: "acme", principalId: "eve" }, consentId as string),
    ).toMatchObject({
      ok: false,
    });
    const authorization = await toolreg.consentAuthorization(ada, consentId as string);
    if (!authorization.ok) throw new Error(authorization.message);
    const sent = new URL(authorization.url).searchParams;
    const code = `code-${randomUUID()}`;
    vendor.codes.set(code, sent.get("code_challenge") ?? "");

    // The host's start page set the binding cookie in ada's browser; its callback reads the ids back from it.
    const binding = createConsentBinding(randomBytes(32), () => "https://host.example/oauth/callback");
    const cookie = binding.cookieFor(consentId as string);
    const completion = await toolreg.completeConsent({
      state: sent.get("state") ?? "",
      code,
      consentIds: binding.startedIn({ [cookie.name]: cookie.value }),
    });
    expect(completion).toMatchObject({ ok: true, principalId: "ada", credentialRef: "notes" });
    const resumed = completion.ok ? completion.resumed : [];
    expect(resumed).toEqual([
      {
        parkedCallId,
        toolName: "notes_get_note",
        envelope: expect.objectContaining({ ok: true, data: { id: "n-1", text: "hello" } }),
      },
    ]);
    // Asked after again, the parked call answers the same and runs nothing; another user is refused.
    expect(await toolreg.resumeParked(ada, parkedCallId as string)).toEqual(resumed[0]?.envelope);
    expect(
      await toolreg.resumeParked({ tenantId: "acme", principalId: "eve" }, parkedCallId as string),
    ).toMatchObject({
      ok: false,
      error: { code: "not_authorized" },
    });
    expect(vendor.served).toEqual(["/notes/n-1"]);
    expect(await toolreg.call(ada, "notes_get_note", { id: "n-2" })).toMatchObject({ ok: true });
  });

  it("parks nothing without consent, and refuses to resume or complete one", async () => {
    toolreg = await createToolreg({ toolkits: [notesToolkit()], metaTools: false });
    expect(await toolreg.resumeParked(ada, "parked-1")).toMatchObject({
      ok: false,
      error: { code: "not_authorized" },
    });
    expect(await toolreg.completeConsent({ state: "s", code: "c", consentIds: ["x"] })).toMatchObject({
      ok: false,
      reason: "unknown_state",
    });
    expect(await toolreg.consentAuthorization(ada, "x")).toMatchObject({ ok: false });
  });

  it("refuses a credentials resolver beside consent's own, which the seam would not ask", async () => {
    const credentials = { resolve: async () => "a-token-from-elsewhere" };
    await expect(withConsent({ credentials })).rejects.toThrow(/credentials or consent.resolver/);
  });
});
