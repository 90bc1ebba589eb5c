/** @module An audit event for tests of the trail's sinks, every field filled, the id as given. */
import type { AuditEvent } from "../../src/ports/stores.js";

export function auditEventOf(id: string, overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    tenantId: "t",
    id,
    at: 1,
    kind: "tool-call",
    actor: "p",
    runId: "r",
    toolCallId: "c",
    tool: "look",
    toolVersion: "1.0.0",
    effect: "read",
    outcome: "ok",
    durationMs: 1,
    approvalId: undefined,
    idempotencyKey: undefined,
    approval: "never",
    message: undefined,
    ...overrides,
  };
}
