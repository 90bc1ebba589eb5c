/**
 * The todo tools over MCP, as a user's client reaches them: `toolreg mcp` over stdio is one run, so a plan
 * written there is read back there, and another `toolreg mcp` on the same state starts with an empty list.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, expect, it } from "vitest";
import { connectToolregMcp } from "./connect-toolreg-mcp.js";

const clients: Client[] = [];
const cwd = mkdtempSync(join(tmpdir(), "toolreg-todo-mcp-"));
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  rmSync(cwd, { recursive: true, force: true });
});

async function connect(): Promise<Client> {
  const client = await connectToolregMcp(cwd);
  clients.push(client);
  return client;
}

it("keeps a plan for the run of one toolreg mcp, and none for another's", async () => {
  const first = await connect();
  const written = await first.callTool({
    name: "todo_write",
    arguments: {
      items: [
        { content: "Read the invoice", status: "completed" },
        { content: "Check the totals", status: "in_progress" },
      ],
    },
  });
  expect(written.isError).toBeUndefined();
  expect(written.content).toEqual([
    {
      type: "text",
      text: "Todo list, revision 1: 1 of 2 completed, 1 in progress, 0 pending.\n[x] 1: Read the invoice\n[>] 2: Check the totals",
    },
  ]);
  const read = await first.callTool({ name: "todo_read", arguments: {} });
  expect(read.structuredContent).toEqual({
    revision: 1,
    items: [
      { id: "1", content: "Read the invoice", status: "completed" },
      { id: "2", content: "Check the totals", status: "in_progress" },
    ],
  });
  const refused = await first.callTool({
    name: "todo_write",
    arguments: {
      items: [
        { content: "One", status: "in_progress" },
        { content: "Two", status: "in_progress" },
      ],
    },
  });
  expect(refused.isError).toBe(true);
  expect(JSON.stringify(refused.content)).toContain("keep exactly one in_progress");

  const second = await connect();
  expect((await second.callTool({ name: "todo_read", arguments: {} })).structuredContent).toEqual({
    items: [],
    revision: 0,
  });
});
