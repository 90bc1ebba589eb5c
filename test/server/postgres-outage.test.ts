/**
 * @module A registry server on PostgreSQL whose database goes away mid-run and comes back: reached through
 * a TCP proxy this test cuts (every connection reset, new ones refused) and restores. Nothing escapes as a
 * 500, nothing that changes data runs without its claim, and the server recovers without a restart.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import { type Listening, listen } from "../../src/server/listen.js";
import { openRegistryServer, type RegistryServer } from "../../src/server/registry-server.js";
import { openPostgresDeployment } from "../../src/stores/postgres/index.js";
import { createScriptedTool } from "../../src/test/scripted-tool.js";
import { calculateTool } from "../../src/tools/general/index.js";
import { dropSchema, freshSchema, POSTGRES_URL } from "../support/postgres-schema.js";
import { postgresAvailable } from "../support/sql.js";

const reachable = await postgresAvailable("outage test");

/** A proxy to PostgreSQL that can be cut (open sockets destroyed, new ones reset) and restored. */
async function cuttableProxy(target: URL) {
  let up = true;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (!up) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    cut() {
      up = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      up = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.runIf(reachable)("a registry server whose PostgreSQL goes away and comes back", () => {
  const schema = freshSchema();
  let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
  let server: RegistryServer;
  let listening: Listening;
  let key: string;
  let runs = 0;
  const write = createScriptedTool(
    Array.from({ length: 20 }, () => () => {
      runs++;
      return "written";
    }),
    {
      name: "write_record",
      description: "Writes a record to an external system.",
      category: "general",
      effect: "external-write",
      approval: "never",
      overrideReason: "runs without parking, so the test sees each run",
    },
  );

  const invoke = (tool: string, input: unknown, headers: Record<string, string> = {}, bearer = key) =>
    fetch(`${listening.url}/api/v1/tools/${tool}/invoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(input),
    });

  beforeAll(async () => {
    const target = new URL(POSTGRES_URL);
    proxy = await cuttableProxy(target);
    const viaProxy = new URL(POSTGRES_URL);
    viaProxy.port = String(proxy.port);
    viaProxy.hostname = "127.0.0.1";
    const stores = await openPostgresDeployment({
      connectionString: viaProxy.toString(),
      schema,
      // Short, so a query on a cut connection fails fast instead of waiting on TCP.
      maxConnections: 4,
    });
    server = openRegistryServer({
      registry: new ToolRegistry([calculateTool, write]),
      store: stores,
      logger: silentLogger,
    });
    key = (await server.auth.createKey({ tenantId: "acme", principalId: "agent" })).key;
    listening = await listen(server, { port: 0, host: "127.0.0.1" });
  });

  afterAll(async () => {
    proxy?.restore();
    await listening?.stop(2_000);
    await proxy?.close();
    await dropSchema(schema);
  });

  it("answers every request with an envelope or a 503 while the database is gone, and recovers after", async () => {
    expect((await invoke("write_record", {}, { "idempotency-key": "before" })).status).toBe(200);
    expect(runs).toBe(1);
    const stranger = (await server.auth.createKey({ tenantId: "acme", principalId: "other" })).key;

    proxy.cut();
    // The key is in the verified-key cache for a second: the call reaches the seam, whose claim fails.
    const claimed = await invoke("write_record", {}, { "idempotency-key": "during" });
    const body = (await claimed.json()) as { ok: boolean; error?: { code: string; retryable: boolean } };
    expect(claimed.status).toBe(503);
    expect(claimed.headers.get("retry-after")).toBe("1");
    expect(body).toMatchObject({ ok: false, error: { code: "internal", retryable: true } });
    expect(runs).toBe(1); // nothing ran that could not be claimed
    // A read needs no claim: it runs, its audit event waiting for the store.
    const read = await invoke("calculate", { expression: "6*7" });
    expect(read.status).toBe(200);
    // A key the cache has not seen cannot be checked: retry later, not "your key is wrong".
    const unchecked = await invoke("calculate", { expression: "1+1" }, {}, stranger);
    expect(unchecked.status).toBe(503);
    expect(unchecked.headers.get("retry-after")).toBe("1");
    expect(await unchecked.json()).toMatchObject({ code: "store_unavailable" });

    proxy.restore();
    let recovered: Response | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      recovered = await invoke("write_record", {}, { "idempotency-key": "during" });
      if (recovered.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered?.status).toBe(200);
    expect(runs).toBe(2);
    // The same key again replays: the outage left no half-written claim behind.
    expect(await (await invoke("write_record", {}, { "idempotency-key": "during" })).json()).toMatchObject({
      ok: true,
    });
    expect(runs).toBe(2);
    expect((await invoke("calculate", { expression: "1+1" }, {}, stranger)).status).toBe(200);
  });
});
