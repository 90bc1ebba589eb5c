/**
 * Importing over Streamable HTTP: requests go through the egress client (loopback refused unless the
 * deployment allows it), the deployment's credential comes from a credentialRef, and a caller's own
 * token never reaches the upstream.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolRegistry } from "../../registry/registry.js";
import { silentLogger } from "../../seam/context.js";
import { listen } from "../../server/listen.js";
import { openRegistryServer } from "../../server/registry-server.js";
import { createTestHarness } from "../../test/test-harness.js";
import { mcpServer } from "./mcp-server.js";

const FIXTURE = fileURLToPath(
  new URL("../../../test/fixtures/mcp-upstream/upstream-server.mjs", import.meta.url),
);

let folder: string;
let upstreams: ChildProcess[] = [];
let url: string;

/** The fixture upstream over HTTP, stateless or with sessions; resolves to its /mcp address. */
async function startUpstream(mode: "--http" | "--http-sessions", tools: object[]): Promise<string> {
  const spec = join(folder, `spec${mode}.json`);
  writeFileSync(spec, JSON.stringify({ tools }));
  const portFile = join(folder, `port${mode}`);
  upstreams.push(spawn(process.execPath, [FIXTURE, spec, mode, portFile], { stdio: "inherit" }));
  for (let tries = 0; !existsSync(portFile) && tries < 200; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return `http://127.0.0.1:${readFileSync(portFile, "utf8")}/mcp`;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "toolreg-mcp-http-"));
  url = await startUpstream("--http", [
    { name: "whoami", description: "Says who called.", annotations: { readOnlyHint: true } },
  ]);
}, 15_000);

afterAll(() => {
  for (const upstream of upstreams) upstream.kill();
  upstreams = [];
  rmSync(folder, { recursive: true, force: true });
});

const credentials = {
  resolve: async (ref: string) => {
    if (ref !== "upstream-token") throw new Error("unknown reference");
    return "s3cret";
  },
};

const importOverHttp = (allowLoopback: boolean) =>
  mcpServer({
    name: "remote",
    transport: {
      kind: "http",
      url,
      egress: { allowAddressClasses: allowLoopback ? ["public", "loopback"] : ["public"] },
      credential: { header: "authorization", scheme: "Bearer", credentialRef: "upstream-token" },
    },
    credentials,
  });

describe("mcpServer over Streamable HTTP", () => {
  it("is refused by the egress policy when the deployment has not allowed the address", async () => {
    await expect(importOverHttp(false)).rejects.toThrow(/loopback/);
  });

  it("sends the deployment's credential from its credentialRef", async () => {
    const imported = await importOverHttp(true);
    try {
      const { seam, context } = createTestHarness(imported.tools());
      const envelope = await seam.call(context(), "remote_whoami", {});
      expect(envelope.ok && envelope.content).toContain("Bearer s3cret");
    } finally {
      await imported.close();
    }
  });

  it("never forwards the caller's own key: served by the registry server, the upstream sees the deployment's", async () => {
    const imported = await importOverHttp(true);
    const server = openRegistryServer({
      registry: new ToolRegistry(imported.tools()),
      store: join(folder, "server.db"),
      logger: silentLogger,
    });
    const listening = await listen(server, { port: 0 });
    try {
      const { key } = await server.auth.createKey({ tenantId: "t", principalId: "agent" });
      const response = await fetch(`${listening.url}/api/v1/tools/remote_whoami/invoke`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: "{}",
      });
      const text = JSON.stringify(await response.json());
      expect(text).toContain("Bearer s3cret");
      expect(text).not.toContain(key);
    } finally {
      await listening.stop();
      await imported.close();
    }
  });
});

describe("mcpServer over Streamable HTTP with sessions", () => {
  it("treats a session the upstream forgot (404) as a lost connection: it reconnects and the next call works", async () => {
    const sessionUrl = await startUpstream("--http-sessions", [
      { name: "echo", description: "Echoes its text.", annotations: { readOnlyHint: true } },
      { name: "forget", description: "Forgets every session.", annotations: { readOnlyHint: true } },
    ]);
    const events: string[] = [];
    const imported = await mcpServer({
      name: "remote",
      transport: { kind: "http", url: sessionUrl, egress: { allowAddressClasses: ["loopback"] } },
      reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
      onEvent: (event) => events.push(event.type),
    });
    try {
      const { seam, context } = createTestHarness(imported.tools());
      const echo = () => seam.call(context(), "remote_echo", { text: "hi" });
      expect(await echo()).toMatchObject({ ok: true, content: expect.stringContaining("\nhi\n") });
      expect(await seam.call(context(), "remote_forget", {})).toMatchObject({ ok: true });

      // The upstream no longer knows the session: that call fails, as the connection it was made on did.
      const refused = await echo();
      expect(refused).toMatchObject({ ok: false, error: { code: "upstream_error" } });
      expect(events).toContain("mcp.disconnected");
      // A new session, made in the background: calls work again without anyone importing anew.
      await expect.poll(async () => (await echo()).ok, { timeout: 5_000, interval: 50 }).toBe(true);
      expect(await echo()).toMatchObject({ ok: true, content: expect.stringContaining("\nhi\n") });
    } finally {
      await imported.close();
    }
  });
});
