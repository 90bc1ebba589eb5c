/**
 * @module A `tools/call` runs in the trace its `_meta` names (SEP-414), on any transport: the call's
 * `execute_tool` span is the caller's span's child, whether answered at once or run as a task, and so is
 * the resume of a task whose approval was decided elsewhere.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../test/support/until.js";
import { createScriptedTool } from "../../test/scripted-tool.js";
import { createTestHarness, type TestHarness } from "../../test/test-harness.js";
import { calculateTool } from "../../tools/general/index.js";
import { McpCallTasks } from "./call-tasks.js";
import { createMcpServer } from "./create-mcp-server.js";

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const CALLER_SPAN_ID = "b7ad6b7169203331";
const _meta = { traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` };

const exporter = new InMemorySpanExporter();
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
});
afterAll(() => {
  trace.disable();
  propagation.disable();
  context.disable();
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  exporter.reset();
});

async function connect(harness: TestHarness): Promise<Client> {
  const tasks = new McpCallTasks();
  const server = createMcpServer({
    seam: harness.seam,
    context: ({ toolCallId, signal }) => harness.context({ toolCallId, signal }),
    tasks: { tasks, owner: "op", approvals: harness.stores.approvals, decisionPollMs: 10 },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(async () => {
    tasks.close();
    await client.close();
    await server.close();
  });
  return client;
}

/** The ended spans of calls to `tool`, as exported. */
const callSpans = (tool: string): ReadableSpan[] =>
  exporter.getFinishedSpans().filter((span) => span.name === `execute_tool ${tool}`);

const expectCallersChild = (span: ReadableSpan | undefined) => {
  expect(span?.spanContext().traceId).toBe(TRACE_ID);
  expect(span?.parentSpanContext?.spanId).toBe(CALLER_SPAN_ID);
};

async function createdTask(client: Client, name: string, input: Record<string, unknown>): Promise<string> {
  const created = await client.request(
    { method: "tools/call", params: { name, arguments: input, task: {}, _meta } },
    CreateTaskResultSchema,
  );
  return created.task.taskId;
}

describe("a tools/call joins the caller's trace from its _meta", () => {
  it("answered at once: the execute_tool span is the caller's span's child, with the GenAI attributes", async () => {
    const client = await connect(createTestHarness([calculateTool]));
    const result = await client.callTool({ name: "calculate", arguments: { expression: "6*7" }, _meta });
    expect(result.isError).toBeFalsy();
    const [span] = callSpans("calculate");
    expectCallersChild(span);
    expect(span?.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "calculate",
    });
  });

  it("without a traceparent, a call starts a trace of its own", async () => {
    const client = await connect(createTestHarness([calculateTool]));
    await client.callTool({
      name: "calculate",
      arguments: { expression: "1+1" },
      _meta: { traceparent: "junk" },
    });
    const [span] = callSpans("calculate");
    expect(span).toBeDefined();
    expect(span?.spanContext().traceId).not.toBe(TRACE_ID);
    expect(span?.parentSpanContext).toBeUndefined();
  });

  it("run as a task after its request was answered: still the caller's", async () => {
    const client = await connect(createTestHarness([calculateTool]));
    const taskId = await createdTask(client, "calculate", { expression: "2+2" });
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expectCallersChild(callSpans("calculate")[0]);
  });

  it("a task parked for approval, decided elsewhere: its resume is the caller's too", async () => {
    const tool = createScriptedTool([{ content: "sent" }], { name: "send_email", effect: "external-write" });
    const harness = createTestHarness([tool]);
    const client = await connect(harness);
    const taskId = await createdTask(client, "send_email", {});
    const pending = await until(
      "the call to park",
      5_000,
      async () => (await harness.stores.approvals.list({ tenantId: "t1", status: "pending" }))[0]?.id,
      5,
    );
    // Approved outside any trace (as the console would), not run: the task resumes it itself.
    await harness.seam.approve({ tenantId: "t1", approvalId: pending, by: "approver" });
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "sent" }]);
    const spans = callSpans("send_email");
    expect(spans.map((span) => span.attributes["toolreg.call.kind"])).toEqual([
      "tool-call",
      "approval-resume",
    ]);
    for (const span of spans) expectCallersChild(span);
  });
});
