/**
 * @module The benchmark's servers behind an SDK `Client`: the bare SDK server and toolreg's, linked in
 * memory (client and server in one process) or each in a child process over stdio; and the one call they
 * all get, timed in batches.
 */
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type AnyTool, createExecutionContext, createSeam, ToolRegistry } from "toolreg";
import { createMcpServer } from "toolreg/mcp";
import { createMemoryStores } from "toolreg/stores/memory";

export const ARGUMENTS = { text: "hello", times: 3, upper: true };
export const EXPECTED_TEXT = "HELLOHELLOHELLO";

// The two servers' own modules are plain JavaScript, so that over stdio `node` runs both alike.
const catalogueUrl = new URL("./catalogue.js", import.meta.url);
const bareServerUrl = new URL("./bare-server.js", import.meta.url);

export interface Connection {
  client: Client;
  close(): Promise<void>;
}

async function connectInMemory(server: {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}): Promise<Connection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "bench", version: "0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export async function bareInMemory(): Promise<Connection> {
  const { createBareServer } = (await import(bareServerUrl.href)) as { createBareServer(): McpServer };
  return connectInMemory(createBareServer());
}

/** toolreg's server over memory stores, with a context per call as the CLI builds one. */
export async function toolregInMemory(): Promise<Connection> {
  // A .js module, typed here by what the CLI's catalogue loader reads from it.
  const { catalogue } = (await import(catalogueUrl.href)) as { catalogue: { tools: AnyTool[] } };
  const registry = new ToolRegistry(catalogue.tools);
  const seam = createSeam({ registry: registry.view(), stores: createMemoryStores() });
  const runId = `bench-${randomUUID()}`;
  const server = createMcpServer({
    seam,
    registry,
    context: ({ toolCallId, signal }) =>
      createExecutionContext({ tenantId: "local", principalId: "operator", runId, toolCallId, signal }),
  });
  return connectInMemory(server);
}

/** With TOOLREG_BENCH_CPU_PROF=<folder>, the child writes a V8 CPU profile there as it exits. */
async function connectStdio(args: string[]): Promise<Connection> {
  const profileDir = process.env.TOOLREG_BENCH_CPU_PROF;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), ...args],
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    stderr: "inherit",
  });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** `node bench/mcp/bare-stdio.js`. */
export function bareStdio(): Promise<Connection> {
  return connectStdio([fileURLToPath(new URL("./bare-stdio.js", import.meta.url))]);
}

/** `node dist/cli/main.js --db <dbPath> --registry bench/mcp/catalogue.js mcp`: `toolreg mcp` as shipped. */
export function toolregStdio(dbPath: string): Promise<Connection> {
  return connectStdio([
    fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url)),
    "--db",
    dbPath,
    "--registry",
    fileURLToPath(catalogueUrl),
    "mcp",
  ]);
}

async function callOnce(client: Client): Promise<void> {
  const result = await client.callTool({ name: "echo", arguments: ARGUMENTS });
  if (result.isError) throw new Error(`echo failed: ${JSON.stringify(result.content)}`);
}

/** Wall-clock and CPU (this process, every thread) nanoseconds a call, over a batch. */
export interface Timing {
  wallNs: number;
  cpuNs: number;
}

/** Times `calls` calls made `concurrency` at a time (each group awaited whole). */
export async function timeBatch(client: Client, calls: number, concurrency: number): Promise<Timing> {
  const groups = Math.max(1, Math.round(calls / concurrency));
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let n = 0; n < groups; n++) {
    if (concurrency === 1) await callOnce(client);
    else await Promise.all(Array.from({ length: concurrency }, () => callOnce(client)));
  }
  const wall = Number(process.hrtime.bigint() - started);
  const cpu = process.cpuUsage(cpuBefore);
  const count = groups * concurrency;
  return { wallNs: wall / count, cpuNs: ((cpu.user + cpu.system) * 1_000) / count };
}

/**
 * The echo tool's input schema as listed, without the `$schema` key the SDK's zod conversion adds (toolreg
 * lists none), after checking that one call answers the expected text and nothing else.
 */
export async function probe(client: Client): Promise<string> {
  const tool = (await client.listTools()).tools.find((listed) => listed.name === "echo");
  if (!tool) throw new Error("lists no echo tool");
  const result = await client.callTool({ name: "echo", arguments: ARGUMENTS });
  const expected = JSON.stringify([{ type: "text", text: EXPECTED_TEXT }]);
  if (
    result.isError ||
    result.structuredContent !== undefined ||
    JSON.stringify(result.content) !== expected
  ) {
    throw new Error(`echo answered ${JSON.stringify(result)}`);
  }
  const { $schema: _dialect, ...schema } = tool.inputSchema;
  return JSON.stringify(schema);
}
