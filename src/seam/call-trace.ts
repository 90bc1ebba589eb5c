/** @module What the audit row and span of one call say beyond its outcome, filled in as the steps run. */
import type { AnyTool } from "../registry/registry.js";

export interface CallTrace {
  tool: AnyTool | undefined;
  /** How approval was settled: `never`, `always`, `policy:allow`, `approved` … */
  approval: string | undefined;
  approvalId: string | undefined;
  idempotencyKey: string | undefined;
  replayed: boolean;
}

export function newCallTrace(approval?: string, approvalId?: string): CallTrace {
  return { tool: undefined, approval, approvalId, idempotencyKey: undefined, replayed: false };
}
