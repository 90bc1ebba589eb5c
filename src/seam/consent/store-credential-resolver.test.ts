/**
 * @module The store-backed resolver and the chain, against a token endpoint on 127.0.0.1 that behaves as
 * RFC 6749 §5.1–5.2 and §6 say (and, where GitHub departs from it, as GitHub's docs say), reached through
 * the real egress client.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEgressClient, type EgressClient } from "../../egress/egress-client.js";
import type { CredentialStore, NewCredential } from "../../ports/credential-store.js";
import { createMemoryCredentialStore } from "../../stores/memory/credentials.js";
import type { CredentialResolver } from "../context.js";
import { CredentialUnavailableError, chainCredentialResolvers } from "./credential-inspector.js";
import { OAuthClients, oauthAppRef } from "./oauth-clients.js";
import { createStoreCredentialResolver } from "./store-credential-resolver.js";

interface TokenRequest {
  form: URLSearchParams;
}
type Answer = { status: number; type?: string; body: string };

/** A token endpoint whose answers the test scripts; it records every request it is sent. */
const endpoint = {
  server: undefined as Server | undefined,
  url: "",
  requests: [] as TokenRequest[],
  answer: (_request: TokenRequest): Answer | Promise<Answer> => ({ status: 500, body: "" }),
};

const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    request.on("data", (chunk) => {
      text += chunk;
    });
    request.on("end", () => resolve(text));
  });

beforeAll(async () => {
  endpoint.server = createServer(async (request, response) => {
    const token: TokenRequest = { form: new URLSearchParams(await read(request)) };
    endpoint.requests.push(token);
    const answer = await endpoint.answer(token);
    response.writeHead(answer.status, { "content-type": answer.type ?? "application/json" });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => endpoint.server?.listen(0, "127.0.0.1", resolve));
  endpoint.url = `http://127.0.0.1:${(endpoint.server.address() as AddressInfo).port}/token`;
});
afterAll(() => new Promise<void>((resolve) => endpoint.server?.close(() => resolve())));

let egress: EgressClient;
let store: CredentialStore;
let clock: number;
const providers = () => ({
  vendor: { authorizeUrl: "https://vendor.example/authorize", tokenUrl: endpoint.url },
});
const resolverOver = (options: { clients?: OAuthClients } = {}) =>
  createStoreCredentialResolver({
    store,
    clients:
      options.clients ??
      new OAuthClients({
        providers: providers(),
        apps: { vendor: { clientId: "toolreg", clientSecret: "app-secret" } },
      }),
    transport: egress,
    now: () => clock,
  });

const alice = { tenantId: "acme", principalId: "alice" };
const oauth = (overrides: Partial<NewCredential> = {}): NewCredential => ({
  tenantId: "acme",
  principalId: "alice",
  ref: "vendor",
  kind: "oauth",
  provider: "vendor",
  scopes: ["read"],
  expiresAt: 100_000,
  secrets: { accessToken: "access-1", refreshToken: "refresh-1" },
  connectedBy: "alice",
  at: 1_000,
  ...overrides,
});
const granted = (body: Record<string, unknown>): Answer => ({ status: 200, body: JSON.stringify(body) });

beforeEach(() => {
  egress = createEgressClient({ policy: { allowAddressClasses: ["loopback"] } });
  store = createMemoryCredentialStore();
  clock = 10_000;
  endpoint.requests = [];
});
afterEach(() => egress.close());

describe("store credential resolver", () => {
  it("uses the caller's own credential first, then the tenant's, never another tenant's", async () => {
    const resolver = resolverOver();
    await store.put(oauth({ principalId: undefined, secrets: { accessToken: "tenant-token" } }));
    expect(await resolver.resolve("vendor", { tenantId: "acme", principalId: "bob" })).toBe("tenant-token");
    await store.put(oauth());
    expect(await resolver.resolve("vendor", alice)).toBe("access-1");
    await expect(
      resolver.resolve("vendor", { tenantId: "other", principalId: "alice" }),
    ).rejects.toMatchObject({
      problem: "missing",
    });
    expect(endpoint.requests).toHaveLength(0);
  });

  it("says why a credential cannot be used: missing, or revoked with the reason", async () => {
    const resolver = resolverOver();
    expect(await resolver.inspect("vendor", alice)).toMatchObject({ usable: false, problem: "missing" });
    await store.put(oauth());
    expect(await resolver.inspect("vendor", alice)).toEqual({
      usable: true,
      kind: "oauth",
      scopes: ["read"],
    });
    await store.put(oauth({ ref: "pat", kind: "token", scopes: ["ignored"], expiresAt: undefined }));
    expect(await resolver.inspect("pat", alice)).toEqual({ usable: true, kind: "token", scopes: undefined });
    await resolver.reject("vendor", alice, "the vendor answered 401", "access-1");
    const check = await resolver.inspect("vendor", alice);
    expect(check).toMatchObject({ usable: false, problem: "revoked" });
    expect(check.usable === false && check.message).toContain("the vendor answered 401");
  });

  it("gives up only the token the vendor refused, not one stored since", async () => {
    const resolver = resolverOver();
    await store.put(oauth());
    const sent = await resolver.resolve("vendor", alice);
    // The user reconnects while the request with the old token is in flight; then the vendor refuses it.
    await store.put(oauth({ secrets: { accessToken: "access-reconnected" }, at: 2_000 }));
    await resolver.reject("vendor", alice, "the vendor answered 401", sent);
    expect(await resolver.inspect("vendor", alice)).toMatchObject({ usable: true });
    expect(await resolver.resolve("vendor", alice)).toBe("access-reconnected");
    // A refusal of the token now stored gives it up.
    await resolver.reject("vendor", alice, "the vendor answered 401", "access-reconnected");
    expect(await resolver.inspect("vendor", alice)).toMatchObject({ usable: false, problem: "revoked" });
  });

  it("refreshes an expiring token once for every call waiting on it, and stores what it got", async () => {
    const resolver = resolverOver();
    await store.put(oauth({ expiresAt: clock + 30_000 }));
    endpoint.answer = async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return granted({
        access_token: "access-2",
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: "refresh-2",
        scope: "read write",
      });
    };
    const secrets = await Promise.all(Array.from({ length: 8 }, () => resolver.resolve("vendor", alice)));
    expect(secrets).toEqual(Array(8).fill("access-2"));
    expect(endpoint.requests).toHaveLength(1);
    expect(Object.fromEntries(endpoint.requests[0]?.form ?? [])).toEqual({
      grant_type: "refresh_token",
      refresh_token: "refresh-1",
      client_id: "toolreg",
      client_secret: "app-secret",
    });
    expect(await store.get({ ...alice, ref: "vendor" })).toMatchObject({
      version: 2,
      expiresAt: clock + 3_600_000,
      scopes: ["read", "write"],
      secrets: { accessToken: "access-2", refreshToken: "refresh-2" },
    });
    // Stored: the next call sends nothing.
    expect(await resolver.resolve("vendor", alice)).toBe("access-2");
    expect(endpoint.requests).toHaveLength(1);
  });

  it("keeps the refresh token when the provider does not rotate it, and the scopes when it does not say", async () => {
    const resolver = resolverOver();
    await store.put(oauth({ expiresAt: clock - 1 }));
    endpoint.answer = () => granted({ access_token: "access-2", token_type: "bearer" });
    expect(await resolver.resolve("vendor", alice)).toBe("access-2");
    expect(await store.get({ ...alice, ref: "vendor" })).toMatchObject({
      expiresAt: undefined,
      scopes: ["read"],
      secrets: { accessToken: "access-2", refreshToken: "refresh-1" },
    });
  });

  it("gives up a credential whose refresh the provider refuses, so consent is asked again", async () => {
    const resolver = resolverOver();
    await store.put(oauth({ expiresAt: clock - 1 }));
    endpoint.answer = () => ({
      status: 400,
      body: JSON.stringify({ error: "invalid_grant", error_description: "grant request is invalid" }),
    });
    const failure = await resolver.resolve("vendor", alice).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CredentialUnavailableError);
    expect(failure).toMatchObject({ problem: "expired" });
    expect((failure as Error).message).toContain("invalid_grant");
    expect((failure as Error).message).not.toContain("refresh-1");
    expect(await store.get({ ...alice, ref: "vendor" })).toMatchObject({
      secrets: undefined,
      revokedReason: "the provider refused its refresh: invalid_grant",
    });
    expect(await resolver.inspect("vendor", alice)).toMatchObject({ usable: false, problem: "revoked" });
  });

  it("reads GitHub's token errors, which come with status 200", async () => {
    const resolver = resolverOver();
    await store.put(oauth({ expiresAt: clock - 1 }));
    endpoint.answer = () =>
      granted({
        error: "bad_refresh_token",
        error_description: "The refresh token passed is incorrect or expired.",
      });
    await expect(resolver.resolve("vendor", alice)).rejects.toMatchObject({ problem: "expired" });
    expect((await store.get({ ...alice, ref: "vendor" }))?.revokedAt).toBe(clock);
  });

  it("keeps a credential the user reconnected while a refused refresh was out", async () => {
    const resolver = resolverOver();
    await store.put(oauth({ expiresAt: clock - 1 }));
    endpoint.answer = async () => {
      await store.put(oauth({ secrets: { accessToken: "access-reconnected" }, expiresAt: undefined }));
      return granted({ error: "bad_refresh_token", error_description: "The refresh token is expired." });
    };
    await expect(resolver.resolve("vendor", alice)).rejects.toMatchObject({ problem: "expired" });
    expect(await store.get({ ...alice, ref: "vendor" })).toMatchObject({
      revokedAt: undefined,
      secrets: { accessToken: "access-reconnected" },
    });
  });

  it("keeps a credential whose refresh fails for the deployment's own reason (a rotated client secret)", async () => {
    const resolver = resolverOver();
    await store.put(oauth({ expiresAt: clock - 1 }));
    endpoint.answer = () => ({
      status: 401,
      body: JSON.stringify({ error: "invalid_client", error_description: "client authentication failed" }),
    });
    await expect(resolver.resolve("vendor", alice)).rejects.toMatchObject({ problem: "unreachable" });
    expect((await store.get({ ...alice, ref: "vendor" }))?.secrets?.refreshToken).toBe("refresh-1");
  });

  it("keeps a credential whose provider is down, and says it is unreachable", async () => {
    const resolver = resolverOver();
    await store.put(oauth({ expiresAt: clock - 1 }));
    endpoint.answer = () => ({ status: 503, body: "" });
    await expect(resolver.resolve("vendor", alice)).rejects.toMatchObject({ problem: "unreachable" });
    expect(await resolver.inspect("vendor", alice)).toMatchObject({ usable: false, problem: "unreachable" });
    expect((await store.get({ ...alice, ref: "vendor" }))?.secrets?.refreshToken).toBe("refresh-1");
  });

  it("cannot refresh without a refresh token or an OAuth app", async () => {
    await store.put(oauth({ expiresAt: clock - 1, secrets: { accessToken: "access-1" } }));
    await expect(resolverOver().resolve("vendor", alice)).rejects.toThrow(/has no refresh token/);
    await store.put(oauth({ expiresAt: clock - 1 }));
    const noApp = resolverOver({ clients: new OAuthClients({ providers: providers() }) });
    await expect(noApp.resolve("vendor", alice)).rejects.toThrow(/no OAuth app for vendor is configured/);
    expect(endpoint.requests).toHaveLength(0);
  });

  it("uses the token another process stored when its own refresh lost the race", async () => {
    const resolver = resolverOver();
    await store.put(oauth({ expiresAt: clock - 1 }));
    endpoint.answer = async () => {
      // The other process's refresh lands while this one's request is out.
      const current = await store.get({ ...alice, ref: "vendor" });
      await store.update({
        ...alice,
        ref: "vendor",
        version: current?.version ?? 0,
        secrets: { accessToken: "from-the-other-process", refreshToken: "refresh-x" },
        expiresAt: clock + 3_600_000,
        at: clock,
      });
      return granted({ access_token: "lost-the-race", token_type: "bearer", expires_in: 3600 });
    };
    expect(await resolver.resolve("vendor", alice)).toBe("from-the-other-process");
    expect((await store.get({ ...alice, ref: "vendor" }))?.secrets?.accessToken).toBe(
      "from-the-other-process",
    );
  });

  it("refreshes with the tenant's own OAuth app when it brought one", async () => {
    await store.put({
      tenantId: "acme",
      ref: oauthAppRef("vendor"),
      kind: "token",
      provider: "vendor",
      account: "acme-client",
      secrets: { accessToken: "acme-secret" },
      connectedBy: "ops",
      at: 1,
    });
    const clients = new OAuthClients({
      providers: providers(),
      apps: { vendor: { clientId: "toolreg", clientSecret: "app-secret" } },
      credentials: store,
    });
    expect(await clients.clientFor("acme", "vendor")).toMatchObject({
      owner: "tenant",
      app: { clientId: "acme-client" },
    });
    expect(await clients.clientFor("other", "vendor")).toMatchObject({ owner: "deployment" });
    expect(await clients.clientFor("acme", "unknown")).toBeUndefined();
    await store.put(oauth({ expiresAt: clock - 1 }));
    endpoint.answer = () => granted({ access_token: "access-2", token_type: "bearer" });
    await resolverOver({ clients }).resolve("vendor", alice);
    expect(endpoint.requests[0]?.form.get("client_id")).toBe("acme-client");
    expect(endpoint.requests[0]?.form.get("client_secret")).toBe("acme-secret");
  });

  it("refuses a token of another type than bearer, and reads a form-encoded answer", async () => {
    const resolver = resolverOver();
    await store.put(oauth({ expiresAt: clock - 1 }));
    endpoint.answer = () => granted({ access_token: "mac-token", token_type: "mac" });
    await expect(resolver.resolve("vendor", alice)).rejects.toThrow(/not bearer/);
    await store.put(oauth({ expiresAt: clock - 1 }));
    endpoint.answer = () => ({
      status: 200,
      type: "application/x-www-form-urlencoded",
      body: "access_token=form-token&scope=repo%2Cgist&token_type=bearer",
    });
    expect(await resolver.resolve("vendor", alice)).toBe("form-token");
    expect((await store.get({ ...alice, ref: "vendor" }))?.scopes).toEqual(["repo", "gist"]);
  });
});

describe("chained credential resolvers", () => {
  const env: CredentialResolver = {
    async resolve(ref) {
      const match = /^env:([A-Z_]+)$/.exec(ref);
      const value = match?.[1] === "VENDOR_TOKEN" ? "from-env" : undefined;
      if (!value) throw new Error(`the credential "${ref}" is not set`);
      return value;
    },
  };

  it("resolves env: references from the environment and the rest from the store", async () => {
    await store.put(oauth());
    const chain = chainCredentialResolvers(env, resolverOver());
    expect(await chain.resolve("env:VENDOR_TOKEN", alice)).toBe("from-env");
    expect(await chain.inspect("env:VENDOR_TOKEN", alice)).toEqual({
      usable: true,
      kind: undefined,
      scopes: undefined,
    });
    expect(await chain.resolve("vendor", alice)).toBe("access-1");
    expect(await chain.inspect("vendor", alice)).toMatchObject({ usable: true, scopes: ["read"] });
  });

  it("reports the most telling problem: a revoked credential over one nobody knows", async () => {
    const chain = chainCredentialResolvers(env, resolverOver());
    expect(await chain.inspect("vendor", alice)).toMatchObject({ usable: false, problem: "missing" });
    await store.put(oauth());
    await chain.reject("vendor", alice, "401 from the vendor", "access-1");
    expect(await chain.inspect("vendor", alice)).toMatchObject({ usable: false, problem: "revoked" });
    await expect(chain.resolve("vendor", alice)).rejects.toMatchObject({ problem: "revoked" });
  });
});
