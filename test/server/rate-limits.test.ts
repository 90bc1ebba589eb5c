import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { SlidingWindowCeilings } from "../../src/policy/sliding-window-ceilings.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import type { AuthFailureSettings } from "../../src/server/auth-failures.js";
import { type Listening, listen } from "../../src/server/listen.js";
import { openRegistryServer, type RegistryServer } from "../../src/server/registry-server.js";
import { calculateTool } from "../../src/tools/general/index.js";

interface Started {
  url: string;
  server: RegistryServer;
  listening: Listening;
  key: string;
  otherKey: string;
  /** How many times a key was looked up in the store. */
  verified(): number;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function start(options: {
  ceilings?: SlidingWindowCeilings;
  authFailures?: AuthFailureSettings;
}): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), "toolreg-limits-"));
  const server = openRegistryServer({
    registry: new ToolRegistry([calculateTool]),
    store: join(dir, "toolreg.db"),
    logger: silentLogger,
    ...options,
  });
  const key = (await server.auth.createKey({ tenantId: "acme", principalId: "agent-1", operator: true })).key;
  const otherKey = (await server.auth.createKey({ tenantId: "acme", principalId: "agent-2" })).key;
  let verified = 0;
  const verifyKey = server.auth.verifyKey.bind(server.auth);
  server.auth.verifyKey = (presented) => {
    verified++;
    return verifyKey(presented);
  };
  const listening = await listen(server, { port: 0 });
  cleanups.push(async () => {
    await listening.stop(2_000);
    rmSync(dir, { recursive: true, force: true });
  });
  return { url: listening.url, server, listening, key, otherKey, verified: () => verified };
}

function invoke(url: string, key: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/api/v1/tools/calculate/invoke`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify({ expression: "1+1" }),
  });
}

/** A key of the right shape that no store holds. */
const WRONG_KEY = `trk_0123456789abcdef0123_${"x".repeat(43)}`;

describe("rate limits on the registry server", () => {
  it("answers a call over its ceiling 429 with Retry-After and the rate_limited envelope; another principal still calls", async () => {
    const s = await start({
      ceilings: new SlidingWindowCeilings([{ per: "principal", limit: 3, windowMs: 60_000 }]),
    });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await invoke(s.url, s.key)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await invoke(s.url, s.key);
    expect(refused.status).toBe(429);
    const envelope = (await refused.json()) as { ok: boolean; error: { code: string; retryAfterMs: number } };
    expect(envelope).toMatchObject({
      ok: false,
      error: {
        code: "rate_limited",
        retryable: true,
        message: expect.stringContaining("3 calls per minute"),
      },
    });
    expect(Number(refused.headers.get("retry-after"))).toBe(Math.ceil(envelope.error.retryAfterMs / 1000));
    expect(envelope.error.retryAfterMs).toBeGreaterThan(55_000);
    expect((await invoke(s.url, s.otherKey)).status).toBe(200);
  });

  it("refuses a call over its ceiling on /mcp as an error result the client sees", async () => {
    const s = await start({
      ceilings: new SlidingWindowCeilings([{ per: "tool", tool: "calculate", limit: 2, windowMs: 60_000 }]),
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${s.key}` } },
    });
    const client = new Client({ name: "test", version: "0" });
    await client.connect(transport);
    cleanups.unshift(() => client.close());
    for (let i = 0; i < 2; i++) {
      const result = await client.callTool({ name: "calculate", arguments: { expression: "1+1" } });
      expect(result.isError).toBeUndefined();
    }
    const refused = await client.callTool({ name: "calculate", arguments: { expression: "1+1" } });
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([{ type: "text", text: expect.stringMatching(/^error rate_limited: /) }]);
  });
});

describe("failed authentication on the registry server", () => {
  function throttled(limit: number) {
    let now = Date.UTC(2026, 0, 1);
    return {
      settings: { limit, windowMs: 60_000, clock: () => now },
      advance: (ms: number) => {
        now += ms;
      },
    };
  }

  it("counts wrong and revoked keys, dead session cookies and unknown login tokens on every entry, then refuses the address unverified", async () => {
    const clock = throttled(6);
    const s = await start({ authFailures: clock.settings });
    const wrong = { authorization: `Bearer ${WRONG_KEY}` };
    const revoked = await s.server.auth.createKey({ tenantId: "acme", principalId: "agent-3" });
    await s.server.auth.revokeKey(revoked.record.id);
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    });
    const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const failures = [
      () => fetch(`${s.url}/api/v1/tools`, { headers: wrong }),
      () => invoke(s.url, revoked.key),
      () => fetch(`${s.url}/manifest.json`, { headers: wrong }),
      () => fetch(`${s.url}/mcp`, { method: "POST", headers: { ...wrong, ...mcpHeaders }, body: initialize }),
      () => fetch(`${s.url}/login?token=${"y".repeat(43)}`, { redirect: "manual" }),
      () => fetch(`${s.url}/api/v1/session`, { headers: { cookie: `toolreg_session=${"z".repeat(43)}` } }),
    ];
    // No credential at all guessed nothing, and is not counted.
    for (let i = 0; i < 10; i++) expect((await fetch(`${s.url}/api/v1/tools`)).status).toBe(401);
    for (const fail of failures) expect((await fail()).status).toBe(401);

    const verifiedBefore = s.verified();
    const right = { authorization: `Bearer ${s.key}` };
    const refusedEverywhere = [
      await fetch(`${s.url}/api/v1/tools`, { headers: wrong }),
      await fetch(`${s.url}/api/v1/tools`, { headers: right }),
      await fetch(`${s.url}/manifest.json`, { headers: right }),
      await fetch(`${s.url}/mcp`, { method: "POST", headers: { ...right, ...mcpHeaders }, body: initialize }),
      await fetch(`${s.url}/login?token=${s.server.auth.createLoginToken(keyIdOf(s.key))}`, {
        redirect: "manual",
      }),
    ];
    for (const refused of refusedEverywhere) {
      expect(refused.status).toBe(429);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(55);
      expect(await refused.json()).toMatchObject({ status: 429, code: "too_many_auth_failures" });
    }
    // Refused before any key was looked up: the right one included, so the answer says nothing about it.
    expect(s.verified()).toBe(verifiedBefore);
    // What needs no authentication is still served.
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);

    clock.advance(66_000);
    expect((await fetch(`${s.url}/api/v1/tools`, { headers: right })).status).toBe(200);
  });

  it("never throttles a client whose requests succeed, nor another address", async () => {
    const clock = throttled(3);
    const s = await start({ authFailures: { ...clock.settings, trustProxy: 1 } });
    for (let i = 0; i < 50; i++) expect((await invoke(s.url, s.key)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await invoke(s.url, WRONG_KEY, { "x-forwarded-for": "198.51.100.7" })).status).toBe(401);
    }
    expect((await invoke(s.url, s.key, { "x-forwarded-for": "198.51.100.7" })).status).toBe(429);
    // Behind one trusted proxy the client is the last entry, whatever the client wrote before it.
    expect((await invoke(s.url, s.key, { "x-forwarded-for": "198.51.100.7, 198.51.100.8" })).status).toBe(
      200,
    );
    expect((await invoke(s.url, s.key)).status).toBe(200);
  });

  it("ignores X-Forwarded-For unless told to trust a proxy", async () => {
    const s = await start({ authFailures: throttled(3).settings });
    for (let i = 0; i < 3; i++) {
      const spoofed = { "x-forwarded-for": `198.51.100.${i}` };
      expect((await invoke(s.url, WRONG_KEY, spoofed)).status).toBe(401);
    }
    expect((await invoke(s.url, s.key, { "x-forwarded-for": "198.51.100.200" })).status).toBe(429);
  });
});

/** The key id is the part after trk_ and before the next underscore. */
function keyIdOf(key: string): string {
  return key.split("_")[1] as string;
}
