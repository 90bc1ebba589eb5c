import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, DEFAULT_SERVED } from "../cli/run-cli.js";

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function spawnToolregMcp(args: readonly string[] = []): Promise<Client> {
  const cwd = mkdtempSync(join(tmpdir(), "toolreg-mcp-"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "--db", join(cwd, "toolreg.db"), ...args, "mcp"],
    cwd,
    stderr: "pipe",
  });
  client = new Client({ name: "test", version: "0" });
  await client.connect(transport);
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
});
