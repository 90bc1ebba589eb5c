/** @module In-memory audit store: the reference adapter, bounded so a long-lived process cannot grow without end. */
import type { AuditEvent, AuditStore } from "../types.js";

export function createMemoryAuditStore(options: { maxEvents?: number } = {}): AuditStore {
  const maxEvents = options.maxEvents ?? 10_000;
  let events: AuditEvent[] = [];
  return {
    record(event) {
      events.push(event);
      // Drop the oldest half at once: amortised O(1) instead of a shift per event.
      if (events.length > maxEvents) events = events.slice(events.length - Math.floor(maxEvents / 2));
    },
    async list({ tenantId, limit, tool, since }) {
      const matching = events.filter(
        (event) =>
          event.tenantId === tenantId &&
          (tool === undefined || event.tool === tool) &&
          (since === undefined || event.at >= since),
      );
      return matching.slice(-(limit ?? 100)).reverse();
    },
  };
}
