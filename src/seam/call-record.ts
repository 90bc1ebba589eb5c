/** @module Step 10: the audit event and the span of a call, and the audit write that never breaks a call. */
import { SpanStatusCode } from "@opentelemetry/api";
import type { AnyTool } from "../registry/registry.js";
import type { AuditEvent } from "../stores/types.js";
import type { CallTrace } from "./call-trace.js";
import { type ExecutionContext, type Logger, silentLogger } from "./context.js";
import type { Envelope } from "./envelope.js";
import { newEventId } from "./event-id.js";
import type { SeamSettings } from "./seam-settings.js";

/** The fields of an audit event that depend on how the call went. */
export interface CallOutcome {
  outcome: AuditEvent["outcome"];
  durationMs?: number;
  approvalId?: string;
  idempotencyKey?: string;
  approval?: string;
  message?: string;
}

/** One literal with every field, not a spread: this runs on every call. */
export function callEvent(
  settings: SeamSettings,
  kind: AuditEvent["kind"],
  context: ExecutionContext,
  tool: AnyTool | undefined,
  name: string,
  result: CallOutcome,
): AuditEvent {
  return {
    tenantId: context.tenantId,
    id: newEventId(),
    at: settings.now(),
    kind,
    actor: context.principalId,
    runId: context.runId,
    toolCallId: context.toolCallId,
    tool: tool?.name ?? name.slice(0, 100),
    toolVersion: tool?.version,
    effect: tool?.effect,
    outcome: result.outcome,
    durationMs: result.durationMs,
    approvalId: result.approvalId,
    idempotencyKey: result.idempotencyKey,
    approval: result.approval,
    message: result.message,
  };
}

/** Synchronous when the sink is, so a call does not wait a tick for an in-memory append. */
export function recordAudit(
  settings: SeamSettings,
  event: AuditEvent,
  logger: Logger = silentLogger,
): void | Promise<void> {
  // A failing audit sink must not turn a finished call into a crash; it is loud in the log instead.
  const report = (error: unknown) => logger.error({ err: error, tool: event.tool }, "audit sink failed");
  try {
    const pending = settings.stores.audit.record(event);
    if (pending) return pending.then(undefined, report);
  } catch (error) {
    report(error);
  }
}

/**
 * One span and one audit event per call or resume. The span is made whole at the end, with the call's
 * start time, so nothing is held open across the call and no context propagation is needed.
 */
export function recordCall(
  settings: SeamSettings,
  kind: "tool-call" | "approval-resume",
  context: ExecutionContext,
  name: string,
  trace: CallTrace,
  envelope: Envelope,
  startedAt: number,
): void | Promise<void> {
  const tool = trace.tool;
  const outcome = trace.replayed ? "replayed" : envelope.ok ? "ok" : envelope.error.code;
  recordSpan(settings, kind, context, tool?.name ?? name, tool?.effect, outcome, envelope, startedAt);
  return recordAudit(
    settings,
    callEvent(settings, kind, context, tool, name, {
      outcome,
      durationMs: Date.now() - startedAt,
      approvalId: trace.approvalId,
      idempotencyKey: trace.idempotencyKey,
      approval: trace.approval,
      message: envelope.ok ? undefined : envelope.error.message.slice(0, 500),
    }),
    context.logger,
  );
}

/** The span of a call, made whole at its end; a failing tracer is the host's problem, never the call's. */
function recordSpan(
  settings: SeamSettings,
  kind: "tool-call" | "approval-resume",
  context: ExecutionContext,
  toolName: string,
  effect: string | undefined,
  outcome: string,
  envelope: Envelope,
  startedAt: number,
): void {
  try {
    const span = settings.tracer.startSpan(kind === "tool-call" ? "toolreg.call" : "toolreg.resume", {
      startTime: startedAt,
    });
    // Attributes only for a span that records: with no SDK installed they would be built to be dropped.
    if (span.isRecording()) {
      span.setAttributes({
        "toolreg.tool": toolName,
        "toolreg.effect": effect ?? "unknown",
        "toolreg.outcome": outcome,
        "toolreg.tenant": context.tenantId,
      });
      if (!envelope.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: envelope.error.code });
    }
    span.end();
  } catch (error) {
    context.logger.error({ err: error, tool: toolName }, "tracer failed");
  }
}
