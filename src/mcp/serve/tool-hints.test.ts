import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, expect, it } from "vitest";
import { metaTools } from "../../catalog/meta/index.js";
import { createTestHarness, type TestHarness } from "../../test/test-harness.js";
import { filesToolkit } from "../../tools/files/toolkit.js";
import { calculateTool } from "../../tools/general/index.js";
import { webToolkit } from "../../tools/web/toolkit.js";
import { createMcpServer } from "./create-mcp-server.js";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const shipped = (names: readonly string[]) =>
  [...webToolkit.declarations(), ...filesToolkit.declarations()].filter((tool) => names.includes(tool.name));

it("tells an SDK client the truth in tools/list: the web is open world, execute_tool is the worst it may run", async () => {
  let harness: TestHarness | undefined;
  harness = createTestHarness([
    calculateTool,
    ...shipped(["fetch_url", "fs_write"]),
    ...metaTools({ seam: () => (harness as TestHarness).seam }).filter(
      (tool) => tool.name === "execute_tool",
    ),
  ]);
  const server = createMcpServer({
    seam: harness.seam,
    context: ({ toolCallId, signal }) => (harness as TestHarness).context({ toolCallId, signal }),
    registry: harness.registry,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "hints", version: "0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  close = async () => {
    await client.close();
    await server.close();
  };

  const { tools } = await client.listTools();
  expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]))).toEqual({
    // A read that reaches the web.
    fetch_url: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    // A read that reaches nothing outside.
    calculate: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    // A local write that may overwrite: its mode "overwrite" replaces a file.
    fs_write: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    // It may run any of them: a client that auto-approves reads must not skip it.
    execute_tool: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  });
});
