/**
 * @module The credential failures a bound tool reports, against a vendor on 127.0.0.1 and the store-backed
 * resolver: a 401 gives up only the token that was sent, and a credential lost partway through a call says
 * that earlier requests carried it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { EgressClient } from "../../egress/egress-client.js";
import type { CredentialExchange } from "../../egress/egress-policy.js";
import type { CredentialStore, NewCredential } from "../../ports/credential-store.js";
import { createStoreCredentialResolver } from "../../seam/consent/store-credential-resolver.js";
import { createMemoryCredentialStore } from "../../stores/memory/credentials.js";
import { createTestHarness, type TestHarness } from "../../test/test-harness.js";
import { basicCredential } from "./basic-credential.js";
import { type AnyToolSpec, defineToolkit } from "./define-toolkit.js";
import { callOptions } from "./egress-call.js";
import { createToolkitHost } from "./toolkit-host.js";
import { throwIfHttpError } from "./upstream-status.js";

/** The vendor: accepts the tokens in `valid`, answers others 401; `onRequest` runs before it answers. */
const vendor = {
  server: undefined as Server | undefined,
  url: "",
  valid: new Set<string>(),
  seen: [] as (string | undefined)[],
  onRequest: async (_count: number): Promise<void> => {},
};

async function handle(request: IncomingMessage, response: ServerResponse) {
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
  vendor.seen.push(token);
  await vendor.onRequest(vendor.seen.length);
  const status = token !== undefined && vendor.valid.has(token) ? 200 : 401;
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(status === 200 ? { ok: true } : { message: "Bad credentials" }));
}

beforeAll(async () => {
  vendor.server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => vendor.server?.listen(0, "127.0.0.1", resolve));
  vendor.url = `http://127.0.0.1:${(vendor.server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => vendor.server?.close(() => resolve())));

interface VendorEnv {
  egress: EgressClient;
}
/** Reads `steps` records one after another, as a tool that follows pages does. */
const readSteps: AnyToolSpec<VendorEnv> = {
  name: "vendor_read_steps",
  description: "Reads records one after another.",
  category: "productivity",
  effect: "read",
  input: z.strictObject({ steps: z.int().min(1).max(3) }),
  async run(input: { steps: number }, context, env) {
    for (let step = 1; step <= input.steps; step++) {
      throwIfHttpError(await env.egress.request(`${vendor.url}/records/${step}`, callOptions(context)));
    }
    return { data: { steps: input.steps } };
  },
};

/** The vendor's toolkit; `exchange` turns the stored secret into what is sent. */
const toolkitWith = (exchange?: CredentialExchange) =>
  defineToolkit({
    id: "vendor",
    version: "0.1.0",
    package: "toolreg-test-vendor",
    description: "A vendor, for tests.",
    config: z.strictObject({}),
    auth: {
      kind: "oauth",
      header: "authorization",
      scheme: "Bearer",
      oauth: { authorizeUrl: "https://vendor.example/authorize", tokenUrl: "https://vendor.example/token" },
    },
    tools: [readSteps],
    bind: (_config, host) => ({
      egress: host.egress({
        hosts: ["127.0.0.1"],
        credential: exchange
          ? { header: "authorization", credentialRef: "vendor", exchange }
          : { header: "authorization", scheme: "Bearer", credentialRef: "vendor" },
      }),
    }),
  });

const alice = { tenantId: "t1", principalId: "alice", ref: "vendor" };
const connection = (accessToken: string, at: number): NewCredential => ({
  ...alice,
  kind: "oauth",
  provider: "vendor",
  secrets: { accessToken },
  connectedBy: "alice",
  at,
});

let host: ReturnType<typeof createToolkitHost>;
let store: CredentialStore;
let harness: TestHarness;
const call = (steps: number) =>
  harness.seam.call(
    harness.context({
      principalId: "alice",
      credentials: createStoreCredentialResolver({ store }),
    }),
    "vendor_read_steps",
    { steps },
  );

beforeEach(async () => {
  host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  store = createMemoryCredentialStore();
  harness = createTestHarness(await toolkitWith().build({}, host), { clock: Date.now });
  vendor.valid = new Set();
  vendor.seen = [];
  vendor.onRequest = async () => {};
});
afterEach(() => host.close());

describe("a vendor's 401", () => {
  it("gives up the token that was sent, so the next call finds it revoked", async () => {
    await store.put(connection("old-token", 1_000));
    const refused = await call(1);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: "auth_required", details: { credentialRef: "vendor", status: 401 } },
    });
    expect(await store.get(alice)).toMatchObject({ secrets: undefined, revokedReason: expect.any(String) });
  });

  it("keeps a token the user stored while the refused one was in flight", async () => {
    await store.put(connection("old-token", 1_000));
    // The user reconnects while the request with the old token is out; then the vendor refuses that one.
    vendor.onRequest = async () => {
      await store.put(connection("new-token", 2_000));
      vendor.valid.add("new-token");
    };
    const refused = await call(1);
    expect(refused).toMatchObject({ ok: false, error: { code: "auth_required" } });
    expect(vendor.seen).toEqual(["old-token"]);
    expect(await store.get(alice)).toMatchObject({
      revokedAt: undefined,
      secrets: { accessToken: "new-token" },
    });
    vendor.onRequest = async () => {};
    expect(await call(1)).toMatchObject({ ok: true });
    expect(vendor.seen.at(-1)).toBe("new-token");
  });

  it("gives up the credential itself when its exchange caches nothing (HTTP Basic, or Bearer otherwise)", async () => {
    harness = createTestHarness(await toolkitWith(basicCredential({ otherwise: "bearer" })).build({}, host), {
      clock: Date.now,
    });
    await store.put(connection("old-token", 1_000));
    const refused = await call(1);
    expect(vendor.seen).toEqual(["old-token"]);
    expect(refused).toMatchObject({ ok: false, error: { code: "auth_required", retryable: false } });
    expect(await store.get(alice)).toMatchObject({ secrets: undefined, revokedReason: expect.any(String) });
  });
});

describe("a credential that cannot be used", () => {
  it("before any request: auth_required, nothing was sent", async () => {
    const refused = await call(2);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: "auth_required", retryable: false, details: { credentialRef: "vendor" } },
    });
    expect(refused.ok || refused.error.message).toContain("nothing was sent");
    expect(vendor.seen).toEqual([]);
  });

  it("after earlier requests carried it: upstream_error, saying they may have taken effect", async () => {
    await store.put(connection("token", 1_000));
    vendor.valid.add("token");
    // Revoked (by a person, elsewhere) after the first request went out.
    vendor.onRequest = async (count) => {
      if (count === 1) await store.revoke({ ...alice, at: 3_000, reason: "revoked by alice" });
    };
    const stopped = await call(2);
    expect(stopped).toMatchObject({
      ok: false,
      error: { code: "upstream_error", retryable: false, details: { credentialRef: "vendor" } },
    });
    const message = stopped.ok ? "" : stopped.error.message;
    expect(message).toContain("after 1 earlier request(s) that may have taken effect");
    expect(message).not.toContain("nothing was sent");
    expect(vendor.seen).toEqual(["token"]);
  });
});
