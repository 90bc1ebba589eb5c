import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { IDEMPOTENCY_KEY_META } from "../../src/mcp/serve/create-mcp-server.js";
import { CLI, DEFAULT_SERVED } from "../cli/run-cli.js";
import { connectToolregMcp } from "./connect-toolreg-mcp.js";

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function spawnToolregMcp(args: readonly string[] = []): Promise<Client> {
  client = await connectToolregMcp(mkdtempSync(join(tmpdir(), "toolreg-mcp-")), args);
  return client;
}

describe("toolreg mcp", () => {
  it("serves the CLI's tools over stdio and calls them through the seam", async () => {
    const mcp = await spawnToolregMcp();
    expect(mcp.getServerVersion()).toMatchObject({ name: "toolreg" });
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(DEFAULT_SERVED);
    const result = await mcp.callTool({ name: "calculate", arguments: { expression: "0.1 + 0.2" } });
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: "text", text: "0.3" }]);
    expect(result.structuredContent).toMatchObject({ value: "0.3" });
  });

  it("acts in the operator's mode: a disabled assistant sees no tools", async () => {
    const mcp = await spawnToolregMcp(["--mode", "disabled"]);
    expect((await mcp.listTools()).tools).toEqual([]);
    const refused = await mcp.callTool({ name: "calculate", arguments: { expression: "1" } });
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([
      { type: "text", text: expect.stringMatching(/^error not_authorized: /) },
    ]);
  });

  it("runs a call once per idempotency key the client names in _meta, across its retries", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "toolreg-mcp-key-"));
    const counting = fileURLToPath(new URL("../fixtures/counting/catalogue.mjs", import.meta.url));
    client = await connectToolregMcp(cwd, ["--registry", counting]);
    const call = (key: string) =>
      (client as Client).callTool({
        name: "count_write",
        arguments: { label: "keyed" },
        _meta: { [IDEMPOTENCY_KEY_META]: key },
      });
    const first = await call("retry-1");
    expect(first.isError).toBeUndefined();
    expect(await call("retry-1")).toEqual(first);
    await call("retry-2");
    const runs = readFileSync(join(cwd, "executions.log"), "utf8")
      .split("\n")
      .filter((line) => line.includes("\tstart\t"))
      .map((line) => line.split("\t")[0]);
    expect(runs).toEqual(["retry-1", "retry-2"]);
    // A key that is not one is the client's mistake, refused as invalid params before anything runs.
    await expect(call("not a key")).rejects.toThrow(/idempotencyKey must be/);
  });
});

describe("toolreg mcp stopping", () => {
  it("on SIGTERM records a write still running past the drain as interrupted, and exits", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "toolreg-mcp-stop-"));
    const counting = fileURLToPath(new URL("../fixtures/counting/catalogue.mjs", import.meta.url));
    const child = spawn(
      process.execPath,
      [CLI, "--db", join(cwd, "toolreg.db"), "--registry", counting, "--drain-ms", "300", "mcp"],
      { cwd, stdio: ["pipe", "pipe", "pipe"] },
    );
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "count_write", arguments: { label: "long", ms: 20_000 } },
    });
    const log = join(cwd, "executions.log");
    await expect
      .poll(() => existsSync(log) && readFileSync(log, "utf8"), { timeout: 10_000 })
      .toContain("start");
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    const database = new Database(join(cwd, "toolreg.db"), { readonly: true });
    try {
      expect(database.prepare("SELECT status FROM idempotency").all()).toEqual([{ status: "unknown" }]);
      expect(database.prepare("SELECT tool FROM audit WHERE kind = 'tool-call-interrupt'").all()).toEqual([
        { tool: "count_write" },
      ]);
      expect(database.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      database.close();
    }
  });
});
