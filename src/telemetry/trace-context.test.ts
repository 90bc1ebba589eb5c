import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type TextMapPropagator,
  trace,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  contextFromHeaders,
  contextFromMeta,
  contextOfMcpRequest,
  metaWithTraceContext,
} from "./trace-context.js";

const CALLER = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
const OTHER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/** The span context a context joined, or undefined. */
const joined = (extracted: Context) => trace.getSpanContext(extracted);

// As toolreg serve installs them: what a context.with makes active is what a call made inside it sees.
beforeAll(() => context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
afterAll(() => context.disable());
beforeEach(() => {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterEach(() => propagation.disable());

describe("contextFromHeaders", () => {
  it("joins the trace a traceparent header names, with its tracestate, from Fetch or Node headers", () => {
    const fetchHeaders = new Headers({ TraceParent: CALLER, tracestate: "vendor=opaque" });
    const nodeHeaders = { traceparent: CALLER, tracestate: ["vendor=opaque"] };
    for (const headers of [fetchHeaders, nodeHeaders]) {
      const span = joined(contextFromHeaders(headers, ROOT_CONTEXT));
      expect(span).toMatchObject({
        traceId: "0af7651916cd43dd8448eb211c80319c",
        spanId: "b7ad6b7169203331",
        traceFlags: 1,
        isRemote: true,
      });
      expect(span?.traceState?.get("vendor")).toBe("opaque");
    }
  });

  it("joins nothing from hostile or malformed headers, and never throws", () => {
    const hostile = [
      new Headers({ traceparent: "not-a-traceparent" }),
      new Headers({ traceparent: "00-00000000000000000000000000000000-b7ad6b7169203331-01" }),
      new Headers({ traceparent: `${CALLER}-${"x".repeat(100_000)}`.replace(/^00/, "01") }),
      { traceparent: 42 as unknown as string },
      { traceparent: [CALLER, 7] as unknown as string[] },
      { traceparent: [`01${CALLER.slice(2)}-${"y".repeat(9_000)}`] },
      {},
    ];
    for (const headers of hostile) expect(joined(contextFromHeaders(headers, ROOT_CONTEXT))).toBeUndefined();
    expect(contextFromHeaders(undefined, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
  });

  it("keeps a context already in a trace: the host's HTTP instrumentation joined these headers already", () => {
    const serverSpan = trace.wrapSpanContext({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: 1,
    });
    const base = trace.setSpan(ROOT_CONTEXT, serverSpan);
    expect(contextFromHeaders(new Headers({ traceparent: CALLER }), base)).toBe(base);
  });

  it("joins from the active context when no base is given", () => {
    const extracted = context.with(ROOT_CONTEXT, () => contextFromHeaders({ traceparent: CALLER }));
    expect(joined(extracted)?.spanId).toBe("b7ad6b7169203331");
  });
});

describe("contextFromMeta", () => {
  it("joins the trace `_meta` names under the conventions' keys", () => {
    const span = joined(
      contextFromMeta({ traceparent: CALLER, tracestate: "a=1", progressToken: 3 }, ROOT_CONTEXT),
    );
    expect(span?.traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(span?.traceState?.serialize()).toBe("a=1");
  });

  it("joins nothing from a `_meta` that is not an object, or whose keys are not strings of its own", () => {
    const inherited = Object.create({ traceparent: CALLER }) as object;
    const hostile: unknown[] = [
      undefined,
      null,
      CALLER,
      [CALLER],
      { traceparent: { toString: () => CALLER } },
      { traceparent: "x".repeat(1_000_000) },
      { TraceParent: CALLER },
      inherited,
      JSON.parse(`{"__proto__": {"traceparent": "${CALLER}"}}`),
    ];
    for (const meta of hostile) expect(joined(contextFromMeta(meta, ROOT_CONTEXT))).toBeUndefined();
  });

  it("keeps the base when a host's propagator throws", () => {
    const throwing: TextMapPropagator = {
      inject: () => {
        throw new Error("broken propagator");
      },
      extract: () => {
        throw new Error("broken propagator");
      },
      fields: () => [],
    };
    propagation.disable();
    propagation.setGlobalPropagator(throwing);
    expect(contextFromMeta({ traceparent: CALLER }, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
    expect(contextFromHeaders({ traceparent: CALLER }, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
    const meta = { kept: true };
    expect(metaWithTraceContext(meta, contextFromMeta({ traceparent: CALLER }))).toBe(meta);
  });
});

describe("contextOfMcpRequest", () => {
  it("prefers the request's `_meta` to the HTTP header, and takes the header when `_meta` names no trace", () => {
    const headers = new Headers({ traceparent: OTHER, tracestate: "header=1" });
    const fromMeta = joined(contextOfMcpRequest({ traceparent: CALLER }, headers, ROOT_CONTEXT));
    expect(fromMeta?.spanId).toBe("b7ad6b7169203331");
    // The header's tracestate belongs to the header's trace, not to the one `_meta` names.
    expect(fromMeta?.traceState).toBeUndefined();
    expect(joined(contextOfMcpRequest({ traceparent: "garbage" }, headers, ROOT_CONTEXT))?.spanId).toBe(
      "00f067aa0ba902b7",
    );
    expect(joined(contextOfMcpRequest(undefined, headers, ROOT_CONTEXT))?.spanId).toBe("00f067aa0ba902b7");
    expect(joined(contextOfMcpRequest(undefined, undefined, ROOT_CONTEXT))).toBeUndefined();
  });
});

describe("metaWithTraceContext", () => {
  it("adds the active trace to what `_meta` already holds, replacing a stale traceparent", () => {
    const active = contextFromMeta({ traceparent: CALLER, tracestate: "a=1" }, ROOT_CONTEXT);
    const meta = metaWithTraceContext({ progressToken: 7, traceparent: OTHER }, active);
    expect(meta).toEqual({ progressToken: 7, traceparent: CALLER, tracestate: "a=1" });
  });

  it("round-trips: what goes out is joined on the other side", () => {
    const active = contextFromHeaders({ traceparent: CALLER }, ROOT_CONTEXT);
    const sent = context.with(active, () => metaWithTraceContext(undefined));
    expect(joined(contextFromMeta(sent, ROOT_CONTEXT))).toMatchObject({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
    });
  });

  it("sends the trace on but never baggage, even when the host's propagator carries it", () => {
    propagation.disable();
    propagation.setGlobalPropagator(
      new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    );
    const active = contextFromMeta(
      { traceparent: CALLER, baggage: "user.email=ada%40example.com" },
      ROOT_CONTEXT,
    );
    expect(propagation.getBaggage(active)?.getEntry("user.email")?.value).toBe("ada@example.com");
    expect(metaWithTraceContext({}, active)).toEqual({ traceparent: CALLER });
  });

  it("leaves `_meta` as it was, or absent, when no trace is active", () => {
    const meta = { progressToken: 7 };
    expect(metaWithTraceContext(meta, ROOT_CONTEXT)).toBe(meta);
    expect(metaWithTraceContext(undefined, ROOT_CONTEXT)).toBeUndefined();
  });
});
