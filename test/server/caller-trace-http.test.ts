/**
 * @module The registry server's HTTP routes run the seam in the caller's trace (its `traceparent`
 * header): an invoke is the caller's span's child, and an approved call runs in the approver's trace,
 * whose request set it going. In-memory exporter, real server on 127.0.0.1.
 */
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, jsonBody, startFixture } from "./server-fixture.js";

const exporter = new InMemorySpanExporter();
let f: Fixture;
beforeAll(async () => {
  // As toolreg serve registers them with OTLP export on.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  f = await startFixture();
});
afterAll(async () => {
  await f.close();
  trace.disable();
  propagation.disable();
  context.disable();
});

const traced = (traceId: string, spanId: string) => ({
  traceparent: `00-${traceId}-${spanId}-01`,
});

const spansOf = (traceId: string) =>
  exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);

describe("the HTTP routes join the caller's trace", () => {
  it("an invoke is the child of the span its traceparent names", async () => {
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const response = await f.call("/api/v1/tools/calculate/invoke", {
      ...jsonBody({ expression: "6*7" }),
      headers: { "content-type": "application/json", ...traced(traceId, "b7ad6b7169203331") },
      key: f.keys.agentA,
    });
    expect(response.status).toBe(200);
    const [span] = spansOf(traceId);
    expect(span?.name).toBe("execute_tool calculate");
    expect(span?.parentSpanContext?.spanId).toBe("b7ad6b7169203331");
  });

  it("an approved call runs in the approver's trace, not in the one that parked it", async () => {
    const requesterTrace = "11111111111111111111111111111111";
    const approverTrace = "22222222222222222222222222222222";
    const parked = await f.call("/api/v1/tools/send_email/invoke", {
      ...jsonBody({ to: "hal" }),
      headers: { "content-type": "application/json", ...traced(requesterTrace, "aaaaaaaaaaaaaaaa") },
      key: f.keys.agentA,
    });
    expect(parked.status).toBe(202);
    const { error } = (await parked.json()) as { error: { details: { approvalId: string } } };
    const approved = await f.call(`/api/v1/approvals/${error.details.approvalId}/approve`, {
      ...jsonBody({}),
      headers: { "content-type": "application/json", ...traced(approverTrace, "bbbbbbbbbbbbbbbb") },
      key: f.keys.aliceOperator,
    });
    expect(approved.status).toBe(200);
    expect(spansOf(requesterTrace).map((span) => span.attributes["toolreg.call.kind"])).toEqual([
      "tool-call",
    ]);
    const [resume] = spansOf(approverTrace);
    expect(resume?.name).toBe("execute_tool send_email");
    expect(resume?.attributes["toolreg.call.kind"]).toBe("approval-resume");
    expect(resume?.parentSpanContext?.spanId).toBe("bbbbbbbbbbbbbbbb");
  });
});
