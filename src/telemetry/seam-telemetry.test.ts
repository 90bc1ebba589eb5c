import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { type DataPoint, type Histogram, MeterProvider } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CollectingReader } from "../../test/support/collecting-reader.js";
import { EgressClient } from "../egress/egress-client.js";
import { approvalIdOf } from "../seam/envelope.js";
import { createScriptedTool } from "../test/scripted-tool.js";
import { createTestHarness } from "../test/test-harness.js";
import { webTools } from "../tools/web/index.js";

// What a host's OpenTelemetry SDK sets up (NodeSDK's defaults): a context manager, W3C trace context and
// baggage propagators, a tracer provider.
const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
propagation.setGlobalPropagator(
  new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
);
const spans = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));

/** A server on 127.0.0.1 that answers JSON and keeps the headers of every request. */
const received: IncomingHttpHeaders[] = [];
let server: Server;
let base: string;
const egress = new EgressClient({ policy: { allowCidrs: ["127.0.0.1/32"] } });

beforeAll(async () => {
  server = createServer((request, response) => {
    received.push(request.headers);
    response.writeHead(request.url === "/missing" ? 404 : 200, { "content-type": "application/json" });
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await egress.close();
  await new Promise((resolve) => server.close(resolve));
  trace.disable();
  propagation.disable();
  context.disable();
});
beforeEach(() => {
  spans.reset();
  received.length = 0;
});

function setup() {
  const send = createScriptedTool(["sent"], { name: "send_email", effect: "external-write" });
  return createTestHarness([...webTools({ egress }), send], { clock: Date.now });
}

const named = (name: string): ReadableSpan => {
  const found = spans.getFinishedSpans().filter((span) => span.name === name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("a call's span", () => {
  it("is an execute_tool child of the caller's span, and the parent of the tool's HTTP request", async () => {
    const { seam, context: callContext } = setup();
    const tracer = trace.getTracer("agent");
    await tracer.startActiveSpan("invoke_agent", async (agentSpan) => {
      const envelope = await seam.call(callContext({ toolCallId: "call_7" }), "fetch_json", {
        url: `${base}/data`,
      });
      expect(envelope).toMatchObject({ ok: true });
      agentSpan.end();
    });

    const agent = named("invoke_agent");
    const call = named("execute_tool fetch_json");
    const request = named("GET");
    expect(call.spanContext().traceId).toBe(agent.spanContext().traceId);
    expect(parentOf(call)).toBe(agent.spanContext().spanId);
    expect(call.kind).toBe(SpanKind.INTERNAL);
    expect(call.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "fetch_json",
      "gen_ai.tool.call.id": "call_7",
      "gen_ai.tool.type": "function",
      "toolreg.effect": "read",
      "toolreg.outcome": "ok",
      "toolreg.tenant": "t1",
      "toolreg.call.kind": "tool-call",
    });
    expect(call.attributes["gen_ai.tool.description"]).toEqual(expect.any(String));
    expect(call.status.code).toBe(SpanStatusCode.UNSET);

    // The request is the call's child, and the server is told so: its traceparent names the request's span.
    expect(parentOf(request)).toBe(call.spanContext().spanId);
    expect(request.kind).toBe(SpanKind.CLIENT);
    expect(request.attributes).toMatchObject({
      "http.request.method": "GET",
      "server.address": "127.0.0.1",
      "url.full": `${base}/data`,
      "http.response.status_code": 200,
    });
    expect(received[0]?.traceparent).toBe(
      `00-${request.spanContext().traceId}-${request.spanContext().spanId}-01`,
    );
  });

  it("sends the trace on through egress, but never the caller's baggage", async () => {
    const { seam, context: callContext } = setup();
    const withBaggage = propagation.setBaggage(
      context.active(),
      propagation.createBaggage({ "user.email": { value: "ada@example.com" } }),
    );
    await context.with(withBaggage, () => seam.call(callContext(), "fetch_json", { url: `${base}/data` }));
    expect(received[0]?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(received[0]?.baggage).toBeUndefined();
  });

  it("joins a caller's trace handed over as a W3C traceparent", async () => {
    const { seam, context: callContext } = setup();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const remote = propagation.extract(ROOT_CONTEXT, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    await context.with(remote, () => seam.call(callContext(), "fetch_json", { url: `${base}/missing` }));

    const call = named("execute_tool fetch_json");
    expect(call.spanContext().traceId).toBe(traceId);
    expect(parentOf(call)).toBe("00f067aa0ba902b7");
    // A 404 is the tool's answer, but the request itself is marked as failed.
    expect(named("GET").attributes).toMatchObject({ "http.response.status_code": 404, "error.type": "404" });
    expect(received[0]?.traceparent).toContain(traceId);
  });

  it("marks a failure with its code; a call left waiting for approval is not a failure", async () => {
    const { seam, context: callContext } = setup();
    await seam.call(callContext(), "fetch_json", { url: "not a url" });
    const failed = named("execute_tool fetch_json");
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.attributes).toMatchObject({
      "error.type": "invalid_input",
      "toolreg.outcome": "invalid_input",
    });

    const parked = await seam.call(callContext(), "send_email", {});
    const waiting = named("execute_tool send_email");
    expect(waiting.status.code).toBe(SpanStatusCode.UNSET);
    expect(waiting.attributes).toMatchObject({
      "toolreg.outcome": "approval_required",
      "toolreg.approval.id": approvalIdOf(parked),
    });
    expect(waiting.attributes["error.type"]).toBeUndefined();
  });

  it("names a resume after the tool it runs, in the trace of whoever resumes it", async () => {
    const { seam, context: callContext } = setup();
    const parked = await seam.call(callContext({ toolCallId: "call_9" }), "send_email", {});
    const approvalId = approvalIdOf(parked) as string;
    await seam.approve({ tenantId: "t1", approvalId, by: "alice" });
    spans.reset();

    await trace.getTracer("console").startActiveSpan("approve", async (decision) => {
      expect(await seam.resume(callContext({ toolCallId: "call_9" }), approvalId)).toMatchObject({
        ok: true,
      });
      decision.end();
    });
    const resumed = named("execute_tool send_email");
    expect(parentOf(resumed)).toBe(named("approve").spanContext().spanId);
    expect(resumed.attributes).toMatchObject({
      "gen_ai.tool.name": "send_email",
      "toolreg.call.kind": "approval-resume",
      "toolreg.approval.id": approvalId,
      "toolreg.outcome": "ok",
    });
  });

  it("never names a span after a name no tool has: the name asked for is an attribute, cut short", async () => {
    const { seam, context: callContext } = setup();
    const madeUp = `no_such_tool_${"x".repeat(5_000)}`;
    await seam.call(callContext(), madeUp, {});
    await seam.call(callContext(), "no_such_tool_42", {});
    const [long, short] = spans.getFinishedSpans();
    expect([long?.name, short?.name]).toEqual(["execute_tool", "execute_tool"]);
    expect(long?.attributes["gen_ai.tool.name"]).toBeUndefined();
    expect(long?.attributes["toolreg.tool.requested"]).toBe(madeUp.slice(0, 128));
    expect(short?.attributes).toMatchObject({
      "toolreg.tool.requested": "no_such_tool_42",
      "toolreg.outcome": "unknown_tool",
      "error.type": "unknown_tool",
    });
  });
});

describe("a call's metrics", () => {
  it("counts calls by outcome, errors by code, and durations per tool, read from the SDK", async () => {
    // Registered after the seam exists: the instruments follow the provider the host sets, whenever.
    const { seam, context: callContext } = setup();
    const reader = new CollectingReader();
    const { metrics } = await import("@opentelemetry/api");
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    try {
      await seam.call(callContext(), "fetch_json", { url: `${base}/data` });
      await seam.call(callContext(), "fetch_json", { url: `${base}/data` });
      await seam.call(callContext(), "fetch_json", { url: "not a url" });
      await seam.call(callContext(), "made_up_1", {});
      await seam.call(callContext(), "made_up_2", {});

      const { resourceMetrics } = await reader.collect();
      const byName = new Map(
        resourceMetrics.scopeMetrics
          .flatMap((scope) => scope.metrics)
          .map((metric) => [metric.descriptor.name, metric]),
      );
      const points = (name: string) =>
        (byName.get(name)?.dataPoints ?? []).map((point: DataPoint<unknown>) => [
          point.attributes,
          point.value,
        ]);

      expect(points("toolreg.calls")).toEqual(
        expect.arrayContaining([
          [{ "gen_ai.tool.name": "fetch_json", "toolreg.effect": "read", "toolreg.outcome": "ok" }, 2],
          [
            {
              "gen_ai.tool.name": "fetch_json",
              "toolreg.effect": "read",
              "toolreg.outcome": "invalid_input",
            },
            1,
          ],
          [
            { "gen_ai.tool.name": "_OTHER", "toolreg.effect": "unknown", "toolreg.outcome": "unknown_tool" },
            2,
          ],
        ]),
      );
      expect(points("toolreg.calls")).toHaveLength(3);
      expect(points("toolreg.call.errors")).toEqual(
        expect.arrayContaining([
          [{ "gen_ai.tool.name": "fetch_json", "error.type": "invalid_input" }, 1],
          [{ "gen_ai.tool.name": "_OTHER", "error.type": "unknown_tool" }, 2],
        ]),
      );
      const durations = byName.get("gen_ai.execute_tool.duration");
      expect(durations?.descriptor.unit).toBe("s");
      const ok = durations?.dataPoints.find(
        (point) =>
          point.attributes["gen_ai.tool.name"] === "fetch_json" && !("error.type" in point.attributes),
      );
      expect(ok?.attributes["gen_ai.operation.name"]).toBe("execute_tool");
      expect((ok?.value as Histogram | undefined)?.count).toBe(2);
    } finally {
      metrics.disable();
    }
  });
});
