import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { connectToolregMcp } from "./connect-toolreg-mcp.js";

let client: Client | undefined;
let cwd: string | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

async function spawnToolregMcp(args: readonly string[], config?: unknown): Promise<Client> {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-mcp-limits-"));
  if (config !== undefined) writeFileSync(join(cwd, "toolreg.config.json"), JSON.stringify(config));
  client = await connectToolregMcp(cwd, args);
  return client;
}

const calculate = { name: "calculate", arguments: { expression: "1+1" } };

describe("toolreg mcp with rate limits", () => {
  it("refuses the 101st call in a minute under --rate-limit principal=100/min as an error result", async () => {
    const mcp = await spawnToolregMcp(["--rate-limit", "principal=100/min"]);
    for (let i = 0; i < 100; i++)
      expect((await mcp.callTool(calculate)).isError, `call ${i + 1}`).toBeUndefined();
    const refused = await mcp.callTool(calculate);
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([
      {
        type: "text",
        text: expect.stringMatching(
          /^error rate_limited: calculate is over its limit \(100 calls per minute per principal\)/,
        ),
      },
    ]);
  });

  it("applies the config file's rules, and --rate-limit's beside them", async () => {
    const mcp = await spawnToolregMcp(["--rate-limit", "tool:now=1/min"], {
      rateLimits: ["tool:calculate=2/min"],
    });
    expect((await mcp.callTool(calculate)).isError).toBeUndefined();
    expect((await mcp.callTool(calculate)).isError).toBeUndefined();
    expect((await mcp.callTool(calculate)).isError).toBe(true);
    expect((await mcp.callTool({ name: "now", arguments: {} })).isError).toBeUndefined();
    expect((await mcp.callTool({ name: "now", arguments: {} })).isError).toBe(true);
  });
});
