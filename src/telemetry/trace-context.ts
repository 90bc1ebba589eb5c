/**
 * @module The caller's W3C trace context in, and ours out: extracted from HTTP headers or from an MCP
 * request's `params._meta` (the keys `traceparent`, `tracestate`, `baggage`, as OpenTelemetry's MCP
 * conventions and SEP-414 put them), and injected into an outgoing request's `_meta`. Always through the
 * global propagator, so a host's own choice of propagator is honoured; with none installed, a no-op.
 */
import {
  type Context,
  context,
  defaultTextMapSetter,
  propagation,
  type TextMapGetter,
  trace,
} from "@opentelemetry/api";

/**
 * Past any traceparent, tracestate (512 characters) or baggage (8,192 bytes) the W3C formats allow: a
 * longer value is refused whole, never handed to a propagator to parse.
 */
const MAX_VALUE_LENGTH = 8_192;

/** Headers as the Fetch API has them, or as Node and the MCP SDK's `requestInfo` do (names lower-cased). */
export type HeaderCarrier = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A value a propagator may read: a string, or a list of strings, within the bound; anything else is absent. */
function bounded(value: unknown): string | string[] | undefined {
  if (typeof value === "string") return value.length <= MAX_VALUE_LENGTH ? value : undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) return undefined;
  return value.join(",").length <= MAX_VALUE_LENGTH ? [...value] : undefined;
}

const headerGetter: TextMapGetter<HeaderCarrier> = {
  keys: (headers) => (headers instanceof Headers ? [...headers.keys()] : Object.keys(headers)),
  get(headers, key) {
    if (headers instanceof Headers) return bounded(headers.get(key) ?? undefined);
    const name = key.toLowerCase();
    return Object.hasOwn(headers, name) ? bounded(headers[name]) : undefined;
  },
};

/** `_meta` is whatever the client sent: only its own string values are read, never its prototype's. */
const metaGetter: TextMapGetter<object> = {
  keys: (meta) => Object.keys(meta),
  get: (meta, key) =>
    Object.hasOwn(meta, key) ? bounded((meta as Record<string, unknown>)[key]) : undefined,
};

/** `base` with what `carrier` propagates; unchanged when it carries nothing valid, or the propagator throws. */
function extract<Carrier>(base: Context, carrier: Carrier, getter: TextMapGetter<Carrier>): Context {
  try {
    return propagation.extract(base, carrier, getter);
  } catch {
    return base;
  }
}

/**
 * The context of an HTTP caller: `base` joined to the trace its headers name. A `base` already in a trace
 * is kept as it is: the host's HTTP instrumentation joined the same headers and made its server span,
 * which is the better parent of what the request does.
 */
export function contextFromHeaders(headers: HeaderCarrier | undefined, base = context.active()): Context {
  if (headers === undefined || trace.getSpan(base) !== undefined) return base;
  return extract(base, headers, headerGetter);
}

/** Runs `body` in the trace an HTTP caller's headers name: what it calls through the seam is that trace's. */
export function withTraceFromHeaders<T>(headers: HeaderCarrier | undefined, body: () => T): T {
  return context.with(contextFromHeaders(headers), body);
}

/** The context of an MCP request: `base` joined to the trace its `params._meta` names, if it names one. */
export function contextFromMeta(meta: unknown, base = context.active()): Context {
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return base;
  return extract(base, meta, metaGetter);
}

/**
 * The context of an MCP request over any transport: its `_meta` wins, since it names this one request
 * among the several an HTTP request or a stdio stream may carry; the HTTP headers otherwise.
 */
export function contextOfMcpRequest(
  meta: unknown,
  headers: HeaderCarrier | undefined,
  base = context.active(),
): Context {
  return contextFromMeta(meta, contextFromHeaders(headers, base));
}

/**
 * `meta` with `from`'s trace context added (replacing any the caller put there: the trace goes on from
 * here), or `meta` itself when there is none to send, so a request without `_meta` stays without one.
 */
export function metaWithTraceContext(
  meta: Readonly<Record<string, unknown>> | undefined,
  from = context.active(),
): Readonly<Record<string, unknown>> | undefined {
  const carrier: Record<string, string> = {};
  try {
    propagation.inject(from, carrier, defaultTextMapSetter);
  } catch {
    return meta;
  }
  // The trace goes on; baggage stays here, as it does through egress (http-client-span.ts).
  delete carrier.baggage;
  return Object.keys(carrier).length === 0 ? meta : { ...meta, ...carrier };
}
