import { tmpdir } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  type Task,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runToolreg } from "../cli/run-cli.js";
import { type Fixture, jsonBody, startFixture } from "../server/server-fixture.js";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(() => fixture.close());

const open: { client: Client; transport: StreamableHTTPClientTransport }[] = [];
afterEach(async () => {
  for (const { client } of open.splice(0)) await client.close();
});

/** An SDK client in a session of `key`, declaring what a client that can show forms declares. */
async function connect(key: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${fixture.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: "test", version: "0" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: {} };
  });
  await client.connect(transport);
  open.push({ client, transport });
  return { client, transport, asked };
}

/** Asks for `send_email` as a task: answered at once with the task, before anything is decided. */
async function sendAsTask(client: Client, to: string): Promise<Task> {
  const created = await client.request(
    { method: "tools/call", params: { name: "send_email", arguments: { to }, task: { ttl: 600_000 } } },
    CreateTaskResultSchema,
  );
  expect(created.task.status).toBe("working");
  return created.task;
}

/** Polls the task until it says it is parked, and reads the approval id it names. */
async function parkedApproval(client: Client, taskId: string): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const task = await client.experimental.tasks.getTask(taskId);
    const id = /approval ([0-9a-f-]{36})/.exec(task.statusMessage ?? "")?.[1];
    if (task.status === "working" && id) return id;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} never said it was parked`);
}

const decide = (id: string, decision: "approve" | "deny") =>
  fixture.call(`/api/v1/approvals/${id}/${decision}`, {
    ...jsonBody({ note: "test" }),
    key: fixture.keys.aliceOperator,
  });

describe("/mcp calls as tasks", () => {
  it("declares tasks for tools/call and lists every tool as one a client may ask for as a task", async () => {
    const { client } = await connect(fixture.keys.agentA);
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.execution)).toEqual(tools.map(() => ({ taskSupport: "optional" })));
  });

  it("completes a parked call once it is approved through the approvals API, with the tool's own result", async () => {
    const before = fixture.sendEmail.calls.length;
    const { client } = await connect(fixture.keys.agentA);
    const task = await sendAsTask(client, "approved@y.test");
    const approvalId = await parkedApproval(client, task.taskId);
    expect(fixture.sendEmail.calls.length).toBe(before);

    const approved = await decide(approvalId, "approve");
    expect(approved.status).toBe(200);
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "sent" }]);
    expect(result.structuredContent).toEqual({ sent: { to: "approved@y.test" } });
    expect(result._meta?.["io.modelcontextprotocol/related-task"]).toEqual({ taskId: task.taskId });
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("completed");
    // The approver's request ran it and the task read the outcome: once, not twice.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fixture.sendEmail.calls.length).toBe(before + 1);
  });

  it("fails a denied call with the approval_denied result, without running it", async () => {
    const before = fixture.sendEmail.calls.length;
    const { client } = await connect(fixture.keys.agentA);
    const task = await sendAsTask(client, "denied@y.test");
    const approvalId = await parkedApproval(client, task.taskId);
    expect((await decide(approvalId, "deny")).status).toBe(200);
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("approval_denied");
    // The spec's status for a tool call whose result is an error.
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("failed");
    expect(fixture.sendEmail.calls.length).toBe(before);
  });

  it("cancels a parked call by withdrawing its approval, so no approver can run it afterwards", async () => {
    const before = fixture.sendEmail.calls.length;
    const { client } = await connect(fixture.keys.agentA);
    const task = await sendAsTask(client, "cancelled@y.test");
    const approvalId = await parkedApproval(client, task.taskId);
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.statusMessage).toContain(`approval ${approvalId} is denied`);

    const approval = await fixture.call(`/api/v1/approvals/${approvalId}`, {
      key: fixture.keys.aliceOperator,
    });
    expect(await approval.json()).toMatchObject({ status: "denied", decidedBy: "agent-a" });
    expect((await decide(approvalId, "approve")).status).toBe(409);
    await expect(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toThrow(
      /cancelled/,
    );
    await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toThrow(/terminal/);
    expect(fixture.sendEmail.calls.length).toBe(before);
  });

  it("keeps a task for its key across sessions, and from every other key", async () => {
    const first = await connect(fixture.keys.agentA);
    const task = await sendAsTask(first.client, "later@y.test");
    await parkedApproval(first.client, task.taskId);
    await first.transport.terminateSession();

    const again = await connect(fixture.keys.agentA);
    expect((await again.client.experimental.tasks.getTask(task.taskId)).status).toBe("working");
    expect((await again.client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(
      task.taskId,
    );

    // Another tenant's key, and an operator of the same tenant: neither reads, lists nor cancels it.
    for (const key of [fixture.keys.agentB, fixture.keys.aliceOperator]) {
      const { client } = await connect(key);
      await expect(client.experimental.tasks.getTask(task.taskId)).rejects.toThrow(/not found/i);
      await expect(
        client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema),
      ).rejects.toThrow(/not found/i);
      await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toThrow(/not found/i);
      expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(
        task.taskId,
      );
    }
    expect((await again.client.experimental.tasks.getTask(task.taskId)).status).toBe("working");
  });

  it("answers a stateless request with the task, which the key follows up in later requests", async () => {
    const post = async (id: number, method: string, params: object) => {
      const response = await fixture.call("/mcp", {
        ...jsonBody({ jsonrpc: "2.0", id, method, params }),
        key: fixture.keys.agentA,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
      });
      expect(response.headers.get("mcp-session-id")).toBeNull();
      return ((await response.json()) as { result: Record<string, unknown> }).result;
    };
    const created = await post(1, "tools/call", {
      name: "send_email",
      arguments: { to: "stateless@y.test" },
      task: {},
    });
    const { taskId } = created.task as Task;
    const { client } = await connect(fixture.keys.agentA);
    const approvalId = await parkedApproval(client, taskId);
    expect(await post(2, "tasks/get", { taskId })).toMatchObject({ taskId, status: "working" });
    expect((await decide(approvalId, "approve")).status).toBe(200);
    expect(await post(3, "tasks/result", { taskId })).toMatchObject({
      content: [{ type: "text", text: "sent" }],
    });
  });

  it("runs a call that needs no approval as a task too", async () => {
    const { client } = await connect(fixture.keys.agentA);
    const created = await client.request(
      { method: "tools/call", params: { name: "calculate", arguments: { expression: "6*7" }, task: {} } },
      CreateTaskResultSchema,
    );
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "42" }]);
    expect((await client.experimental.tasks.getTask(created.task.taskId)).status).toBe("completed");
  });

  it("answers a client that asks for no task as before: parked, its approval id in _meta", async () => {
    const before = fixture.sendEmail.calls.length;
    const { client, asked } = await connect(fixture.keys.agentA);
    const result = await client.callTool({ name: "send_email", arguments: { to: "plain@y.test" } });
    expect(result.isError).toBe(true);
    expect(result._meta?.["toolreg/approvalId"]).toEqual(expect.any(String));
    expect(asked).toEqual([]);
    expect(fixture.sendEmail.calls.length).toBe(before);
  });
});

describe("/mcp approval by elicitation, granted per key", () => {
  it("asks the user of a key the operator granted approvals:elicit, and accepting runs the call", async () => {
    const before = fixture.sendEmail.calls.length;
    // As an operator grants it, on the server's own store.
    const granted = await runToolreg(
      [
        ...["--db", fixture.storePath, "--tenant", "tenant-a", "--principal", "agent-a"],
        ...["keys", "create", "--scopes", "approvals:elicit"],
      ],
      tmpdir(),
    );
    expect(granted.code).toBe(0);
    const { client, asked } = await connect(granted.stdout.trim());
    const result = await client.callTool({ name: "send_email", arguments: { to: "elicited@y.test" } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("Approve this call?");
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "sent" }]);
    expect(fixture.sendEmail.calls.length).toBe(before + 1);
  });

  it("asks no one for a key without the grant, however able its client is: the call stays parked", async () => {
    const before = fixture.sendEmail.calls.length;
    const plain = await fixture.server.auth.createKey({
      tenantId: "tenant-a",
      principalId: "agent-a",
      scopes: ["approvals:decide"],
    });
    for (const key of [fixture.keys.agentA, plain.key, fixture.keys.aliceOperator]) {
      const { client, asked } = await connect(key);
      const result = await client.callTool({ name: "send_email", arguments: { to: "unasked@y.test" } });
      expect(asked).toEqual([]);
      expect(result.isError).toBe(true);
      expect(result._meta?.["toolreg/approvalId"]).toEqual(expect.any(String));
    }
    expect(fixture.sendEmail.calls.length).toBe(before);
  });
});
