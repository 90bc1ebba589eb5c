import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, jsonBody, startFixture } from "../server/server-fixture.js";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(() => fixture.close());

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connect(key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${fixture.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: "test", version: "0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

describe("/mcp on the registry server", () => {
  it("lists what the key's tenant may see and calls through the seam", async () => {
    const agentA = await connect(fixture.keys.agentA);
    const seenByA = (await agentA.listTools()).tools.map((tool) => tool.name);
    expect(seenByA).toEqual(["calculate", "send_email", "slow_report", "slow_write"]);
    const agentB = await connect(fixture.keys.agentB);
    expect((await agentB.listTools()).tools.map((tool) => tool.name)).toContain("read_ledger");

    const result = await agentA.callTool({ name: "calculate", arguments: { expression: "6*7" } });
    expect(result.content).toEqual([{ type: "text", text: "42" }]);
    expect(result.structuredContent).toMatchObject({ value: "42" });
  });

  it("parks an external write for approval as the key's principal, without running it", async () => {
    const before = fixture.sendEmail.calls.length;
    const client = await connect(fixture.keys.agentA);
    const result = await client.callTool({ name: "send_email", arguments: { to: "x@y.test" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const approvalId = result._meta?.["toolreg/approvalId"] as string;
    expect(approvalId).toEqual(expect.any(String));
    expect(fixture.sendEmail.calls.length).toBe(before);
    const inbox = await fixture.call("/api/v1/approvals?status=pending", { key: fixture.keys.aliceOperator });
    const listed = JSON.stringify(await inbox.json());
    expect(listed).toContain(approvalId);
    expect(listed).toContain("agent-a");
  });

  it("refuses a request without a key, or with an unknown one, as a 401 problem", async () => {
    const initialize = jsonBody({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    });
    const anonymous = await fixture.call("/mcp", initialize);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toContain("application/problem+json");
    expect(anonymous.headers.get("www-authenticate")).toContain("Bearer");
    await expect(connect("trk_not-a-real-key")).rejects.toThrow(/401/);
  });
});

describe("/mcp approval by elicitation", () => {
  let selfApproving: Fixture;
  beforeAll(async () => {
    selfApproving = await startFixture({ allowSelfApproval: true });
  });
  afterAll(() => selfApproving.close());

  /** A client whose user accepts whatever it is asked, in a session (initialize opens one). */
  async function acceptingClient(key: string): Promise<{ client: Client; asked: string[] }> {
    const asked: string[] = [];
    const client = new Client({ name: "test", version: "0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: {} };
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${selfApproving.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return { client, asked };
  }

  it("asks only a key that may decide approvals; any other key's call stays parked", async () => {
    const before = selfApproving.sendEmail.calls.length;
    const agent = await acceptingClient(selfApproving.keys.agentA);
    const parked = await agent.client.callTool({ name: "send_email", arguments: { to: "x@y.test" } });
    expect(parked.isError).toBe(true);
    expect(agent.asked).toEqual([]);
    expect(selfApproving.sendEmail.calls.length).toBe(before);

    const operator = await acceptingClient(selfApproving.keys.aliceOperator);
    const sent = await operator.client.callTool({ name: "send_email", arguments: { to: "x@y.test" } });
    expect(sent.isError).toBeFalsy();
    expect(operator.asked).toHaveLength(1);
    expect(selfApproving.sendEmail.calls.length).toBe(before + 1);
  });
});
