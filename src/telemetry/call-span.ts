/**
 * @module The span of one call through the seam: `execute_tool {tool}` after OpenTelemetry's GenAI
 * conventions, started as a child of whatever context is active when the call begins (the caller's
 * trace, joined by the transport), and active while the call runs, so what the tool does — an HTTP
 * request through egress, a call to an imported MCP server — is its child.
 */
import {
  context as otelContext,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";

/** The provider the API delegates to until an SDK registers one: its spans record nothing. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * Whether an SDK has registered a tracer provider. Asked on every call (a host may register one at any
 * time), because it costs a fraction of making and ending a span that records nothing.
 */
export function tracingInstalled(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NOOP_PROVIDER;
}

/** Outcomes that are not failures: the call waits for a human (approval, consent) and nothing broke. */
const WAITING = new Set(["approval_required", "auth_required"]);

/** What is known of a call when it starts. */
export interface CallStart {
  /** The tool's name, when it names a tool this registry serves; "" otherwise, and for a resume. */
  toolName: string;
  toolCallId: string | undefined;
  startedAt: number;
  /** A resume runs an approved call: the same operation, told apart by `toolreg.call.kind`. */
  kind: "tool-call" | "approval-resume";
}

/** What is known of a call when it ends. */
export interface CallEnd {
  /** As at the start: "" when no served tool was found. */
  toolName: string;
  /** The name as asked for when it named no tool: an attribute, cut short, never the span's name. */
  requestedName: string | undefined;
  description: string | undefined;
  version: string | undefined;
  effect: string | undefined;
  /** `ok`, `replayed`, or the error code. */
  outcome: string;
  errorMessage: string | undefined;
  tenantId: string;
  runId: string | undefined;
  approvalId: string | undefined;
}

/** How much of a name no tool has is kept: a model may send anything, a span name is a series. */
const REQUESTED_NAME_CHARS = 128;

/**
 * Starts the call's span; ask `tracingInstalled()` first, so a call builds nothing when none is. A name
 * that is not a served tool's is never the span's name: a caller could otherwise make one per call.
 */
export function startCallSpan(tracer: Tracer, start: CallStart): Span | undefined {
  try {
    // The attributes a sampler may decide on are given at the start, as the conventions ask.
    return tracer.startSpan(spanName(start.toolName), {
      kind: SpanKind.INTERNAL,
      startTime: start.startedAt,
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        ...(start.toolName === "" ? {} : { "gen_ai.tool.name": start.toolName }),
        "gen_ai.tool.type": "function",
        ...(start.toolCallId === undefined ? {} : { "gen_ai.tool.call.id": start.toolCallId }),
        "toolreg.call.kind": start.kind,
      },
    });
  } catch {
    return undefined;
  }
}

const spanName = (toolName: string): string =>
  toolName === "" ? "execute_tool" : `execute_tool ${toolName}`;

/** Runs `body` with `span` active (as a child context of the current one). */
export function withCallSpan<T>(span: Span, body: () => T): T {
  return otelContext.with(trace.setSpan(otelContext.active(), span), body);
}

/** Names, describes and ends the span; an error status only for a failure, not for a call left waiting. */
export function endCallSpan(span: Span, end: CallEnd): void {
  if (span.isRecording()) {
    if (end.toolName !== "") {
      span.updateName(spanName(end.toolName));
      span.setAttribute("gen_ai.tool.name", end.toolName);
    } else if (end.requestedName !== undefined) {
      span.setAttribute("toolreg.tool.requested", end.requestedName.slice(0, REQUESTED_NAME_CHARS));
    }
    span.setAttributes({
      "toolreg.effect": end.effect ?? "unknown",
      "toolreg.outcome": end.outcome,
      "toolreg.tenant": end.tenantId,
    });
    if (end.description !== undefined) span.setAttribute("gen_ai.tool.description", end.description);
    if (end.version !== undefined) span.setAttribute("toolreg.tool.version", end.version);
    if (end.runId !== undefined) span.setAttribute("toolreg.run.id", end.runId);
    if (end.approvalId !== undefined) span.setAttribute("toolreg.approval.id", end.approvalId);
    if (end.errorMessage !== undefined && !WAITING.has(end.outcome)) {
      span.setAttribute("error.type", end.outcome);
      span.setStatus({ code: SpanStatusCode.ERROR, message: end.errorMessage });
    }
  }
  span.end();
}
