/** @module In-memory audit store: the reference adapter, bounded so a long-lived process cannot grow without end. */
import type { AuditEvent, AuditStore } from "../../ports/stores.js";

/**
 * The last 1,000 events by default: enough for a test or a development host to read back what just
 * happened. A window is not free: each retained event is copied by the young-generation collector and
 * promoted, and a window of 10,000 measured ~0.35 µs more per seam call (over a third of a read call)
 * than one of 1,000. A host that keeps an audit trail uses a durable store; `maxEvents` sets another window.
 */
export function createMemoryAuditStore(options: { maxEvents?: number } = {}): AuditStore {
  const maxEvents = options.maxEvents ?? 1_000;
  let events: AuditEvent[] = [];
  return {
    record(event) {
      events.push(event);
      // Drop the oldest half at once: amortised O(1) instead of a shift per event.
      if (events.length > maxEvents) events = events.slice(events.length - Math.floor(maxEvents / 2));
    },
    async list({ tenantId, limit, tool, since, before }) {
      // Recording order stands in for SQLite's rowid: it orders events of one millisecond.
      const end = before
        ? events.findIndex((event) => event.tenantId === tenantId && event.id === before.id)
        : events.length;
      const matching = events
        .slice(0, end < 0 ? events.length : end)
        .filter(
          (event) =>
            event.tenantId === tenantId &&
            (tool === undefined || event.tool === tool) &&
            (since === undefined || event.at >= since) &&
            (before === undefined || event.at <= before.at),
        );
      return matching.slice(-(limit ?? 100)).reverse();
    },
  };
}
