import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createArtifactOutputStore } from "../../src/artifacts/artifact-output-store.js";
import { createFileArtifactStore } from "../../src/artifacts/file-artifact-store.js";
import { metaTools } from "../../src/catalog/meta/index.js";
import { keptOutputUri } from "../../src/mcp/serve/resources/kept-output-resources.js";
import { RESOURCE_NOT_FOUND } from "../../src/mcp/serve/resources/resource-source.js";
import { toolDocsUri } from "../../src/mcp/serve/resources/tool-docs-resources.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import { type Listening, listen } from "../../src/server/listen.js";
import { openRegistryServer } from "../../src/server/registry-server.js";
import { createScriptedTool } from "../../src/test/scripted-tool.js";
import { calculateTool } from "../../src/tools/general/index.js";

const dir = mkdtempSync(join(tmpdir(), "toolreg-mcp-resources-"));
const artifacts = createFileArtifactStore(join(dir, "artifacts"));
const outputs = createArtifactOutputStore(createFileArtifactStore(join(dir, "outputs")));
const registry = new ToolRegistry([
  calculateTool,
  // Over its 1,000-byte cap: the seam keeps it whole and the answer says where.
  createScriptedTool([{ content: `${"x".repeat(3_000)} THE END` }], {
    name: "long_report",
    limits: { outputBytes: 1_000 },
  }),
  createScriptedTool([{ content: "ledger" }], { name: "read_ledger", category: "finance" }),
  ...metaTools({ outputs }),
]);
let listening: Listening;
const keys = { agentA: "", agentA2: "", agentB: "" };
beforeAll(async () => {
  const server = openRegistryServer({
    registry,
    store: join(dir, "toolreg.db"),
    logger: silentLogger,
    outputs,
    artifacts,
    // Tenant a has no finance tools: read_ledger is tenant b's.
    toolsets: {
      categoriesFor: (tenantId) => (tenantId === "tenant-a" ? new Set(["general", "meta"]) : undefined),
    },
  });
  const key = async (tenantId: string, principalId: string) =>
    (await server.auth.createKey({ tenantId, principalId })).key;
  keys.agentA = await key("tenant-a", "agent-a");
  keys.agentA2 = await key("tenant-a", "agent-a2");
  keys.agentB = await key("tenant-b", "agent-b");
  listening = await listen(server, { port: 0 });
});
afterAll(async () => {
  await listening.stop(2_000);
  rmSync(dir, { recursive: true, force: true });
});

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connect(key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${listening.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: "test", version: "0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function notFound(request: Promise<unknown>): Promise<void> {
  const error = await request.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(RESOURCE_NOT_FOUND);
}

describe("MCP resources over /mcp", () => {
  it("reads a kept output for the key's principal only", async () => {
    const owner = await connect(keys.agentA);
    const result = await owner.callTool({ name: "long_report", arguments: {} });
    const note = (result.content as { text: string }[])[0]?.text ?? "";
    const ref = /"ref":"(out_[0-9a-f]{64})"/.exec(note)?.[1] as string;
    const [contents] = (await owner.readResource({ uri: keptOutputUri(ref) })).contents;
    expect((contents as { text: string }).text).toBe(`${"x".repeat(3_000)} THE END`);
    await notFound((await connect(keys.agentA2)).readResource({ uri: keptOutputUri(ref) }));
    await notFound((await connect(keys.agentB)).readResource({ uri: keptOutputUri(ref) }));
  });

  it("reads a generated file within its tenant, and the docs pages of the key's own tools", async () => {
    const pdf = await artifacts.put({
      tenantId: "tenant-a",
      name: "q3.pdf",
      mediaType: "application/pdf",
      bytes: new TextEncoder().encode("%PDF-1.4 …"),
    });
    const agentA = await connect(keys.agentA);
    expect((await agentA.readResource({ uri: pdf.uri })).contents).toEqual([
      { uri: pdf.uri, mimeType: "application/pdf", blob: Buffer.from("%PDF-1.4 …").toString("base64") },
    ]);
    const agentB = await connect(keys.agentB);
    await notFound(agentB.readResource({ uri: pdf.uri }));

    const listedForA = (await agentA.listResources()).resources.map((resource) => resource.uri);
    expect(listedForA).toEqual(["calculate", "long_report", "read_tool_output"].map(toolDocsUri));
    await notFound(agentA.readResource({ uri: toolDocsUri("read_ledger") }));
    const [page] = (await agentB.readResource({ uri: toolDocsUri("read_ledger") })).contents;
    expect((page as { text: string }).text).toMatch(/^# read_ledger\n/);
  });

  it("tells a session subscribed to a page when its tool changes, on the session's GET stream", async () => {
    const client = await connect(keys.agentA);
    const updated: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
    });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      listChanged++;
    });
    await client.subscribeResource({ uri: toolDocsUri("calculate") });
    // The GET stream opens after initialize; give it a moment before the change.
    await new Promise((resolve) => setTimeout(resolve, 200));
    registry.update(
      createScriptedTool([{ content: "x" }], { name: "calculate", description: "Calculates anew." }),
    );
    await expect.poll(() => updated).toEqual([toolDocsUri("calculate")]);
    expect(listChanged).toBe(1);
  });
});
