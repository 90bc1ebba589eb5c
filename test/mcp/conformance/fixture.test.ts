import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../../cli/run-cli.js";

// The full suite runs from scripts/mcp-conformance.sh; this proves the fixture is served as the script
// serves it (the built CLI, /mcp with a key) and that its tools run through the seam.
const FIXTURE = fileURLToPath(new URL("./fixture.js", import.meta.url));

let child: ChildProcess;
let directory: string;
let url: string;
let key: string;
const clients: Client[] = [];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "toolreg-conformance-"));
  child = spawn(
    process.execPath,
    [CLI, "--db", join(directory, "toolreg.db"), "--registry", FIXTURE, "serve", "--port", "0"],
    { cwd: directory, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed only: ${stdout}`)), 20_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/console: .*\n/.test(stdout)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  url = /toolreg registry on (http:\/\/\S+)/.exec(stdout)?.[1] as string;
  key = /\(shown once\): (trk_\S+)/.exec(stdout)?.[1] as string;
});

afterAll(async () => {
  for (const client of clients) await client.close();
  child.kill("SIGKILL");
  rmSync(directory, { recursive: true, force: true });
});

/** A client as the suite's: it can be asked for sampling and elicitation; the key is what the script's proxy adds. */
async function connect(): Promise<Client> {
  const client = new Client(
    { name: "conformance-like", version: "0" },
    { capabilities: { sampling: {}, elicitation: {} } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

describe("the conformance fixture under toolreg serve", () => {
  it("lists the suite's tools, the 2020-12 schema as declared", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["test_simple_text", "test_sampling", "json_schema_2020_12_tool"]),
    );
    const schema = tools.find((tool) => tool.name === "json_schema_2020_12_tool")?.inputSchema;
    expect(schema).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $defs: { address: { type: "object" } },
      additionalProperties: false,
    });
  });

  it("answers with MCP content blocks, progress and sampling, each call through the seam", async () => {
    const client = await connect();
    const mixed = await client.callTool({ name: "test_multiple_content_types", arguments: {} });
    expect((mixed.content as { type: string }[]).map((block) => block.type)).toEqual([
      "text",
      "image",
      "resource",
    ]);
    expect(mixed.structuredContent).toBeUndefined();

    const progress: Progress[] = [];
    await client.request(
      { method: "tools/call", params: { name: "test_tool_with_progress", arguments: {} } },
      CallToolResultSchema,
      { onprogress: (update) => progress.push(update) },
    );
    expect(progress.map((update) => update.progress)).toEqual([0, 50, 100]);

    client.setRequestHandler(CreateMessageRequestSchema, (asked) => ({
      role: "assistant",
      content: { type: "text", text: `echo: ${JSON.stringify(asked.params.messages[0]?.content)}` },
      model: "test-model",
    }));
    const sampled = await client.callTool({ name: "test_sampling", arguments: { prompt: "hello" } });
    expect(sampled.content).toEqual([
      { type: "text", text: expect.stringMatching(/^LLM response: echo: .*hello/) },
    ]);

    const failed = await client.callTool({ name: "test_error_handling", arguments: {} });
    expect(failed.isError).toBe(true);

    const audit = await fetch(`${url}/api/v1/audit?limit=50`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const { events } = (await audit.json()) as { events: { kind: string; tool: string; outcome: string }[] };
    const calls = events
      .filter((event) => event.kind === "tool-call")
      .map((event) => [event.tool, event.outcome]);
    expect(calls).toEqual(
      expect.arrayContaining([
        ["test_multiple_content_types", "ok"],
        ["test_tool_with_progress", "ok"],
        ["test_sampling", "ok"],
        ["test_error_handling", "upstream_error"],
      ]),
    );
  });

  it("asks the client with the elicitation schemas the suite checks, and answers on the call's stream", async () => {
    const client = await connect();
    const asked: ElicitRequest["params"][] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: "accept", content: { name: "Jane" } };
    });
    const defaults = await client.callTool({ name: "test_elicitation_sep1034_defaults", arguments: {} });
    expect(defaults.content).toEqual([
      { type: "text", text: 'Elicitation completed: action=accept, content={"name":"Jane"}' },
    ]);
    const enums = await client.callTool({ name: "test_elicitation_sep1330_enums", arguments: {} });
    expect(enums.isError).toBeFalsy();
    const [withDefaults, withEnums] = asked.map((params) =>
      "requestedSchema" in params ? params.requestedSchema.properties : undefined,
    );
    expect(withDefaults).toMatchObject({
      name: { type: "string", default: "John Doe" },
      age: { type: "integer", default: 30 },
      score: { type: "number", default: 95.5 },
      status: { enum: ["active", "inactive", "pending"], default: "active" },
      verified: { type: "boolean", default: true },
    });
    expect(withEnums).toMatchObject({
      untitledSingle: { enum: ["option1", "option2", "option3"] },
      titledSingle: { oneOf: expect.arrayContaining([{ const: "value1", title: "First Option" }]) },
      legacyEnum: { enumNames: ["Option One", "Option Two", "Option Three"] },
      untitledMulti: { type: "array", items: { enum: ["option1", "option2", "option3"] } },
      titledMulti: { items: { anyOf: expect.arrayContaining([{ const: "value1", title: "First Choice" }]) } },
    });

    const reconnection = await client.callTool({ name: "test_reconnection", arguments: {} });
    expect(reconnection.content).toEqual([
      { type: "text", text: "Reconnection test completed successfully" },
    ]);
  });

  it("refuses a request sent to another host name (DNS rebinding) before asking for a key", async () => {
    const port = new URL(url).port;
    const status = (host: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        const sent = request(
          {
            host: "127.0.0.1",
            port,
            method: "POST",
            path: "/mcp",
            headers: { host, origin: `http://${host}` },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode);
          },
        );
        sent.on("error", reject);
        sent.end("{}");
      });
    expect(await status("evil.example.com")).toBe(403);
    expect(await status(`localhost:${port}`)).toBe(401);
  });
});
