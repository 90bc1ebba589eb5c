/**
 * @module In-process events for the server's SSE stream: registry revisions, and approvals requested and
 * resolved. Approval events come from the audit trail the seam already writes, so nothing can be decided
 * without the stream hearing of it.
 */

import type { AuditEvent } from "../ports/stores.js";
import type { ToolUpdateEvent } from "../registry/registry.js";

export type ApprovalEvent = {
  type: "approval.requested" | "approval.resolved";
  tenantId: string;
  approvalId: string;
  tool: string;
  /**
   * `pending` when requested; `approved` or `denied` when decided (or retried), the resumed call's outcome
   * when it ran, `interrupted` when its outcome was lost.
   */
  outcome: string;
  actor: string;
  at: number;
};

/**
 * A prompt schedule's occurrence, handed to the host: whoever holds a key of the schedule's principal reads it
 * on the event stream of any instance (the bus carries it to the others) and runs the prompt as a turn of `runId`.
 */
export type SchedulePromptEvent = {
  type: "schedule.prompt";
  tenantId: string;
  principalId: string;
  scheduleId: string;
  runId: string;
  prompt: string;
  /** The occurrence's instant, and when it was handed over (epoch ms). */
  fireAt: number;
  at: number;
};

export type ServerEvent = ToolUpdateEvent | ApprovalEvent | SchedulePromptEvent;

export class EventHub {
  readonly #listeners = new Set<(event: ServerEvent) => void>();
  readonly #closers = new Set<() => void>();
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  /** `onClose` runs when the hub closes (the server stopping), so a stream can end itself cleanly. */
  subscribe(listener: (event: ServerEvent) => void, onClose?: () => void): () => void {
    this.#listeners.add(listener);
    if (onClose) this.#closers.add(onClose);
    return () => {
      this.#listeners.delete(listener);
      if (onClose) this.#closers.delete(onClose);
    };
  }

  /** Ends every subscription: the server is stopping. */
  close(): void {
    this.#closed = true;
    for (const close of [...this.#closers]) close();
    this.#closers.clear();
    this.#listeners.clear();
  }

  publish(event: ServerEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // One broken subscriber (a closed stream) must not starve the others.
      }
    }
  }

  get size(): number {
    return this.#listeners.size;
  }
}

/** What an audit event says of an approval, for the event streams; undefined for any other event. */
export function approvalEventOf(event: AuditEvent): ApprovalEvent | undefined {
  if (!event.approvalId) return undefined;
  const base = {
    tenantId: event.tenantId,
    approvalId: event.approvalId,
    tool: event.tool,
    actor: event.actor,
    at: event.at,
  };
  switch (event.kind) {
    case "approval-request":
      return { type: "approval.requested", ...base, outcome: "pending" };
    case "approval-decision":
    case "approval-resume":
    case "approval-retry":
    case "tool-call-interrupt":
      return { type: "approval.resolved", ...base, outcome: event.outcome };
    default:
      return undefined;
  }
}
