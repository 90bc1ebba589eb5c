/** @module What the audit row and span of one call say beyond its outcome, filled in as the steps run. */
import type { Span } from "@opentelemetry/api";
import type { AnyTool } from "../registry/registry.js";

export interface CallTrace {
  /** What the audit event will call it: a call, or the resume of an approved one. */
  readonly kind: "tool-call" | "approval-resume";
  /** The name as asked for, printable: the event's tool when no tool was found. */
  readonly name: string;
  /** Epoch milliseconds at the start, for the span and the event's duration. */
  readonly startedAt: number;
  tool: AnyTool | undefined;
  /** How approval was settled: `never`, `always`, `policy:allow`, `approved` … */
  approval: string | undefined;
  approvalId: string | undefined;
  idempotencyKey: string | undefined;
  replayed: boolean;
  /** The event went in with the completion, in its transaction: recording the call writes only its span. */
  audited: boolean;
  /** The call's span, active while it runs; none when no tracer is installed. */
  span: Span | undefined;
}

export function newCallTrace(
  kind: CallTrace["kind"],
  name: string,
  startedAt: number,
  approval?: string,
  approvalId?: string,
): CallTrace {
  return {
    kind,
    name,
    startedAt,
    tool: undefined,
    approval,
    approvalId,
    idempotencyKey: undefined,
    replayed: false,
    audited: false,
    span: undefined,
  };
}
