import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  type Task,
  TaskStatusNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createScriptedTool } from "../../test/scripted-tool.js";
import { createTestHarness, type TestHarness } from "../../test/test-harness.js";
import { McpCallTasks } from "./call-tasks.js";
import { createMcpServer } from "./create-mcp-server.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const sendEmail = () =>
  createScriptedTool([{ content: "sent", data: { sent: true } }], {
    name: "send_email",
    description: "Sends an email message to a recipient.",
    category: "communication",
    effect: "external-write",
  });

/**
 * An SDK client of a server whose tasks are `tasks`' for owner "op", learning of decisions only by reading
 * the approval store (no events): as `toolreg mcp` does, and as a server hears a decision taken elsewhere.
 */
async function connect(harness: TestHarness, tasks = new McpCallTasks()) {
  const server = createMcpServer({
    seam: harness.seam,
    context: ({ toolCallId, signal }) => harness.context({ toolCallId, signal }),
    tasks: { tasks, owner: "op", approvals: harness.stores.approvals, decisionPollMs: 10 },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "0" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: {} };
  });
  const statuses: Task["status"][] = [];
  client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => {
    statuses.push(notification.params.status);
  });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(async () => {
    tasks.close();
    await client.close();
    await server.close();
  });
  return { client, asked, statuses };
}

async function asTask(client: Client, name: string, ttl?: number): Promise<Task> {
  const created = await client.request(
    { method: "tools/call", params: { name, arguments: {}, task: ttl === undefined ? {} : { ttl } } },
    CreateTaskResultSchema,
  );
  return created.task;
}

async function pendingApproval(harness: TestHarness): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const [pending] = await harness.stores.approvals.list({ tenantId: "t1", status: "pending" });
    if (pending) return pending.id;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("nothing was parked");
}

const decision = (approvalId: string) => ({ tenantId: "t1", approvalId, by: "approver" });

describe("MCP calls as tasks", () => {
  it("reads a decision taken elsewhere from the approval store, and returns the run's result", async () => {
    const tool = sendEmail();
    const harness = createTestHarness([tool]);
    const { client, asked, statuses } = await connect(harness);
    const task = await asTask(client, "send_email");
    const approvalId = await pendingApproval(harness);
    // As `toolreg approvals approve` in another process: approve, then run it as its requester.
    await harness.seam.approve(decision(approvalId));
    await harness.seam.resume(harness.context(), approvalId);

    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "sent" }]);
    expect(tool.calls).toHaveLength(1);
    // A task is not put to the client by elicitation: its request was answered before it parked.
    expect(asked).toEqual([]);
    expect(statuses.at(-1)).toBe("completed");
  });

  it("runs an approved call nobody ran (its approver stopped first) itself, once", async () => {
    const tool = sendEmail();
    const harness = createTestHarness([tool]);
    const { client } = await connect(harness);
    const task = await asTask(client, "send_email");
    await harness.seam.approve(decision(await pendingApproval(harness)));
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "sent" }]);
    expect(tool.calls).toHaveLength(1);
    expect((await harness.stores.approvals.list({ tenantId: "t1" }))[0]?.status).toBe("executed");
  });

  it("answers an approval that expired undecided with its failure", async () => {
    const tool = sendEmail();
    const harness = createTestHarness([tool], { approvalTtlMs: 60_000 });
    const { client } = await connect(harness);
    const task = await asTask(client, "send_email");
    await pendingApproval(harness);
    harness.clock.advance(61_000);
    await harness.seam.sweep();
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("expired");
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("failed");
    expect(tool.calls).toHaveLength(0);
  });

  it("stops a running call on tasks/cancel: its signal aborts, and it stays cancelled", async () => {
    let aborted = false;
    const slow = createScriptedTool([
      (_input, context) =>
        new Promise((resolve) => {
          context.signal?.addEventListener("abort", () => {
            aborted = true;
            resolve("stopped");
          });
        }),
    ]);
    const { client } = await connect(createTestHarness([slow]));
    const task = await asTask(client, "scripted_tool");
    while (slow.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await client.experimental.tasks.cancelTask(task.taskId)).status).toBe("cancelled");
    // The seam hands the abort to the running tool within a tick.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(aborted).toBe(true);
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("cancelled");
  });

  it("keeps a task for its ttl (a minute at least), then forgets it and stops its wait", async () => {
    let now = Date.UTC(2026, 0, 1);
    const tasks = new McpCallTasks({ now: () => now });
    const harness = createTestHarness([sendEmail()]);
    const { client } = await connect(harness, tasks);
    const task = await asTask(client, "send_email", 1_000);
    expect(task.ttl).toBe(60_000);
    await pendingApproval(harness);
    now += 59_000;
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("working");
    now += 1_000;
    await expect(client.experimental.tasks.getTask(task.taskId)).rejects.toThrow(/not found/i);
    expect(tasks.signalOf(task.taskId).aborted).toBe(true);
  });

  it("pages tasks/list with a cursor it gave, and refuses one it did not", async () => {
    const { client } = await connect(createTestHarness([sendEmail()]), new McpCallTasks());
    const created = [];
    for (let index = 0; index < 101; index++) created.push((await asTask(client, "send_email")).taskId);
    const first = await client.experimental.tasks.listTasks();
    expect(first.tasks).toHaveLength(100);
    const second = await client.experimental.tasks.listTasks(first.nextCursor);
    expect([...first.tasks, ...second.tasks].map((task) => task.taskId)).toEqual(created);
    expect(second.nextCursor).toBeUndefined();
    await expect(client.experimental.tasks.listTasks("forged")).rejects.toThrow(/cursor/);
  });
});
