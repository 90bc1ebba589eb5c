/**
 * Two registry servers on one SQLite file behind a load balancer that routes by the Mcp-Session-Id
 * prefix: a session is its instance's alone, a misrouted one is a 404 that says so, and when an instance
 * dies its sessions die with it while idempotency keys hold across instances (docs/decisions/0015).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDEMPOTENCY_KEY_META } from "../../src/mcp/serve/create-mcp-server.js";
import { SESSION_HEADER } from "../../src/mcp/serve/mcp-http-sessions.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import { type Listening, listen } from "../../src/server/listen.js";
import { openRegistryServer, type RegistryServer } from "../../src/server/registry-server.js";
import { createScriptedTool } from "../../src/test/scripted-tool.js";
import { calculateTool } from "../../src/tools/general/index.js";

interface Instance {
  server: RegistryServer;
  listening: Listening;
}

const dir = mkdtempSync(join(tmpdir(), "toolreg-instances-"));
const storePath = join(dir, "toolreg.db");
/** An external write that runs without parking and answers with how many times it has run. */
const placeOrder = createScriptedTool([() => `run ${placeOrder.calls.length}`], {
  name: "place_order",
  description: "Places an order with a supplier.",
  category: "general",
  effect: "external-write",
  approval: "never",
  overrideReason: "runs without parking, so the test can count its runs",
});
const registry = new ToolRegistry([calculateTool, placeOrder]);
let a: Instance;
let b: Instance;
let key: string;
/** The instances the balancer can reach, by token: an instance leaves it when it stops. */
const live = new Map<string, string>();
const clients: Client[] = [];

async function start(holder: string): Promise<Instance> {
  const server = openRegistryServer({ registry, store: storePath, logger: silentLogger, holder });
  const listening = await listen(server, { port: 0 });
  live.set(server.instance, listening.url);
  return { server, listening };
}

beforeAll(async () => {
  a = await start("host-a:101");
  b = await start("host-b:202");
  key = (await a.server.auth.createKey({ tenantId: "tenant-a", principalId: "agent-a" })).key;
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await a.listening.stop(1_000);
  await b.listening.stop(1_000);
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The load balancer, as the nginx example of 0015 configures it: a request whose session id names a live
 * instance goes there; any other (no session, or its instance gone) goes to the first live one.
 */
async function balancer(url: string | URL, init?: RequestInit): Promise<Response> {
  const id = new Headers(init?.headers).get(SESSION_HEADER);
  const origin = (id ? live.get(id.slice(0, id.indexOf("."))) : undefined) ?? [...live.values()][0];
  if (!origin) throw new TypeError("no instance is up");
  const target = new URL(url);
  return fetch(new URL(`${target.pathname}${target.search}`, origin), init);
}

async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL("http://balancer.test/mcp"), {
    fetch: balancer,
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: "test", version: "0" });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

/** A `tools/list` straight to one instance, in the session `sessionId` names: its status and its text (SSE or JSON). */
async function listIn(instance: Instance, sessionId: string) {
  const answer = await fetch(`${instance.listening.url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      [SESSION_HEADER]: sessionId,
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  return { status: answer.status, text: await answer.text() };
}

const order = (idempotencyKey: string) => ({
  name: "place_order",
  arguments: { sku: "X-1" },
  _meta: { [IDEMPOTENCY_KEY_META]: idempotencyKey },
});

describe("MCP sessions across instances", () => {
  it("gives each instance its own token, hashed from its holder", () => {
    expect(a.server.instance).toMatch(/^[0-9a-f]{10}$/);
    expect(b.server.instance).toMatch(/^[0-9a-f]{10}$/);
    expect(a.server.instance).not.toBe(b.server.instance);
    expect(a.server.instance).not.toContain("host-a");
  });

  it("answers a call naming no session on every instance", async () => {
    for (const instance of [a, b]) {
      const answer = await fetch(`${instance.listening.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "calculate", arguments: { expression: "2*3" } },
        }),
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get(SESSION_HEADER)).toBeNull();
      expect(await answer.json()).toMatchObject({ result: { content: [{ type: "text", text: "6" }] } });
    }
  });

  it("keeps a session on its instance; when that instance dies the session dies, and the keys still hold", async () => {
    const first = await connect();
    const sessionId = first.transport.sessionId as string;
    expect(sessionId.startsWith(`${a.server.instance}.`)).toBe(true);
    expect((await first.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "calculate",
      "place_order",
    ]);
    const sum = await first.client.callTool({ name: "calculate", arguments: { expression: "6*7" } });
    expect(sum.content).toEqual([{ type: "text", text: "42" }]);

    // Misrouted to B: the spec's 404, saying the session is another instance's.
    const misrouted = await listIn(b, sessionId);
    expect(misrouted.status).toBe(404);
    expect(JSON.parse(misrouted.text).error.message).toMatch(/^Session not found: .*another instance/);
    // An id of A's shape that A never gave (or gave another key): a plain 404.
    const foreign = await listIn(a, `${a.server.instance}.${crypto.randomUUID()}`);
    expect(foreign.status).toBe(404);
    expect(JSON.parse(foreign.text).error).toEqual({ code: -32001, message: "Session not found" });
    const listed = await listIn(a, sessionId);
    expect(listed.status).toBe(200);
    expect(listed.text).toContain("place_order");

    await expect(first.client.callTool(order("not a key"))).rejects.toMatchObject({ code: -32602 });
    expect(placeOrder.calls).toHaveLength(0);
    const placed = await first.client.callTool(order("order-7"));
    expect(placed.content).toEqual([{ type: "text", text: "run 1" }]);

    live.delete(a.server.instance);
    await a.listening.stop(1_000);
    await expect(fetch(`${a.listening.url}/mcp`)).rejects.toThrow();

    // The balancer sends A's session to B, which answers 404: the client must initialize again.
    await expect(
      first.client.callTool({ name: "calculate", arguments: { expression: "1+1" } }),
    ).rejects.toMatchObject({ code: 404, message: expect.stringContaining("another instance") });
    const second = await connect();
    expect(second.transport.sessionId?.startsWith(`${b.server.instance}.`)).toBe(true);
    const again = await second.client.callTool({ name: "calculate", arguments: { expression: "1+1" } });
    expect(again.content).toEqual([{ type: "text", text: "2" }]);

    // The retry in B's session, under the same key: A's recorded result, and no second run.
    const retried = await second.client.callTool(order("order-7"));
    expect(retried.content).toEqual(placed.content);
    expect(placeOrder.calls).toHaveLength(1);
    // A new key is a new call, run on B.
    expect((await second.client.callTool(order("order-8"))).content).toEqual([
      { type: "text", text: "run 2" },
    ]);
  });
});
