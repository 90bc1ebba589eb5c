import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createScriptedTool } from "../../test/scripted-tool.js";
import { createTestHarness, type TestHarness } from "../../test/test-harness.js";
import { calculateTool } from "../../tools/general/calculate.js";
import { APPROVAL_ID_META } from "./call-tool-result.js";
import { createMcpServer } from "./create-mcp-server.js";

const sendEmail = () =>
  createScriptedTool([{ content: "sent", data: { sent: true } }], {
    name: "send_email",
    description: "Sends an email message to a recipient.",
    category: "communication",
    effect: "external-write",
  });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function connect(harness: TestHarness, pageSize?: number): Promise<Client> {
  const server = createMcpServer({
    seam: harness.seam,
    context: ({ toolCallId, signal }) => harness.context({ toolCallId, signal }),
    registry: harness.registry,
    ...(pageSize === undefined ? {} : { pageSize }),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

describe("createMcpServer", () => {
  it("lists the visible tools with hints from their effects and declared output schemas", async () => {
    const report = createScriptedTool([{ data: { total: 3 } }], {
      name: "count_rows",
      output: z.object({ total: z.number() }),
    });
    const client = await connect(createTestHarness([calculateTool, sendEmail(), report]));
    expect(client.getServerVersion()).toMatchObject({ name: "toolreg" });
    const { tools, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    expect(tools.map((tool) => [tool.name, tool.annotations])).toEqual([
      [
        "calculate",
        { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      ],
      [
        "send_email",
        { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      ],
      [
        "count_rows",
        { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      ],
    ]);
    expect(tools[0]?.inputSchema).toMatchObject({ type: "object", required: ["expression"] });
    expect(tools[0]?.outputSchema).toBeUndefined();
    expect(tools[2]?.outputSchema).toMatchObject({
      type: "object",
      properties: { total: { type: "number" } },
    });
    expect(tools[2]?.outputSchema).not.toHaveProperty("$schema");
  });

  it("pages the list with an opaque cursor and refuses a forged one", async () => {
    const client = await connect(createTestHarness([calculateTool, sendEmail()]), 1);
    const first = await client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(["calculate"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listTools({ cursor: first.nextCursor });
    expect(second.tools.map((tool) => tool.name)).toEqual(["send_email"]);
    expect(second.nextCursor).toBeUndefined();
    await expect(client.listTools({ cursor: "not-a-cursor" })).rejects.toThrow(/cursor/);
  });

  it("calls a tool through the seam and returns its data as structured content", async () => {
    const client = await connect(createTestHarness([calculateTool]));
    const result = await client.callTool({ name: "calculate", arguments: { expression: "2*(3+4)" } });
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: "text", text: "14" }]);
    expect(result.structuredContent).toMatchObject({ expression: "2*(3+4)", value: "14" });
  });

  it("keeps untrusted data out of structured content", async () => {
    const page = createScriptedTool([
      {
        content: "page text",
        data: { title: "x" },
        provenance: { source: "https://a.test", trusted: false },
      },
    ]);
    const client = await connect(createTestHarness([page]));
    const result = await client.callTool({ name: "scripted_tool", arguments: {} });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.stringify(result.content)).toContain("page text");
  });

  it("answers invalid input and unknown tools as tool errors the model can read", async () => {
    const client = await connect(createTestHarness([calculateTool]));
    const invalid = await client.callTool({ name: "calculate", arguments: { expression: 7 } });
    expect(invalid.isError).toBe(true);
    expect(invalid.content).toEqual([
      { type: "text", text: expect.stringMatching(/^error invalid_input: /) },
    ]);
    const unknown = await client.callTool({ name: "calculat", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toEqual([
      { type: "text", text: expect.stringMatching(/^error unknown_tool: .*Did you mean calculate\?/) },
    ]);
  });

  it("parks a call that needs approval, without running it, and hands back the approval id", async () => {
    const tool = sendEmail();
    const harness = createTestHarness([tool]);
    const client = await connect(harness);
    const result = await client.callTool({ name: "send_email", arguments: { to: "a@b.test" } });
    expect(tool.calls).toHaveLength(0);
    expect(result.isError).toBe(true);
    const approvalId = (result.structuredContent as { approvalId: string }).approvalId;
    expect(result._meta).toEqual({ [APPROVAL_ID_META]: approvalId });
    expect(result.content).toEqual([
      {
        type: "text",
        text: expect.stringContaining(`error approval_required: send_email needs a human's approval`),
      },
    ]);
    expect(JSON.stringify(result.content)).toContain(approvalId);
    const pending = await harness.stores.approvals.list({ tenantId: "t1", status: "pending", limit: 10 });
    expect(pending.map((record) => record.id)).toEqual([approvalId]);
  });

  it("tells the client when the registry changes", async () => {
    const harness = createTestHarness([calculateTool]);
    const client = await connect(harness);
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    harness.registry.install(sendEmail());
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["calculate", "send_email"]);
  });
});
