/**
 * @module The span of one outbound HTTP request (one hop: a redirect is a hop of its own), after
 * OpenTelemetry's HTTP client conventions, and the trace context it carries to the server. Started in
 * the active context, so a tool's request is the child of the call's `execute_tool` span.
 */
import {
  context as otelContext,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { tracingInstalled } from "./call-span.js";

const tracer = trace.getTracer("toolreg");

/**
 * Starts the hop's span (none without an installed tracer) and writes the trace context into `headers`:
 * the span's own, or the active one when there is no span, so a caller's trace reaches the server even
 * when toolreg records nothing. `urlFull` is the URL as it may be shown (no query: it may authorize).
 */
export function startHttpClientSpan(
  method: string,
  url: URL,
  urlFull: string,
  headers: Record<string, string>,
): Span | undefined {
  let span: Span | undefined;
  try {
    if (tracingInstalled()) {
      span = tracer.startSpan(method, {
        kind: SpanKind.CLIENT,
        attributes: {
          "http.request.method": method,
          "server.address": url.hostname,
          "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
          "url.full": urlFull,
          "url.scheme": url.protocol.slice(0, -1),
        },
      });
    }
    const active = otelContext.active();
    propagation.inject(span ? trace.setSpan(active, span) : active, headers);
    // The trace goes on to the server; baggage does not: it is the caller's and the host's, and may name
    // users or carry tokens that a third-party host has no business reading.
    delete headers.baggage;
  } catch {
    // A failing tracer or propagator is the host's problem, never the request's.
  }
  return span;
}

/** Ends the hop's span with the response status, or the failure's class (`error.type`). */
export function endHttpClientSpan(
  span: Span | undefined,
  outcome: { status: number } | { error: string },
): void {
  if (!span) return;
  try {
    if ("status" in outcome) {
      span.setAttribute("http.response.status_code", outcome.status);
      // A client span is in error for a 4xx as well as a 5xx: the request did not do what was asked.
      if (outcome.status >= 400) {
        span.setAttribute("error.type", String(outcome.status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    } else {
      span.setAttribute("error.type", outcome.error);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  } catch {
    // As above.
  }
}
