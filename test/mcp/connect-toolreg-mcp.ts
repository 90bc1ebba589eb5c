/** @module `toolreg mcp` as a child process, connected over stdio as a user's MCP client would be. */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI } from "../cli/run-cli.js";

/** Runs `toolreg --db <cwd>/toolreg.db [args] mcp` in `cwd` and connects to it. */
export async function connectToolregMcp(cwd: string, args: readonly string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "--db", join(cwd, "toolreg.db"), ...args, "mcp"],
    cwd,
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "0" });
  await client.connect(transport);
  return client;
}
