/** @module In-memory approval store: the reference adapter. */
import {
  decideTransition,
  finishTransition,
  pendingApproval,
  retryTransition,
} from "../../ports/store-transitions.js";
import type { ApprovalRecord, ApprovalStore, AuditStore, NewApproval } from "../../ports/stores.js";

const keyOf = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

/** With `audit`, an approval request's event is recorded with the parking, in the same synchronous step. */
export function createMemoryApprovalStore(options: { audit?: AuditStore } = {}): ApprovalStore {
  const { audit } = options;
  const records = new Map<string, ApprovalRecord>();
  /** The newest approval under each tenant's idempotency key, so parking need not scan every approval. */
  const newestByKey = new Map<string, string>();
  const create = (record: NewApproval): ApprovalRecord => {
    const id = keyOf(record.tenantId, record.id);
    if (records.has(id)) throw new Error(`approval ${record.id} already exists`);
    const stored = pendingApproval(structuredClone(record));
    records.set(id, stored);
    const byKey = keyOf(record.tenantId, record.idempotencyKey);
    const newest = records.get(newestByKey.get(byKey) ?? "");
    if (!newest || newest.createdAt <= stored.createdAt) newestByKey.set(byKey, id);
    return structuredClone(stored);
  };
  return {
    async create(record) {
      return create(record);
    },
    ...(audit ? { parkingAudit: audit } : {}),
    async park(record, event) {
      const newest = records.get(newestByKey.get(keyOf(record.tenantId, record.idempotencyKey)) ?? "");
      if (newest) return { created: false, record: structuredClone(newest) };
      const created = create(record);
      if (event) void audit?.record(event);
      return { created: true, record: created };
    },
    async get({ tenantId, id }) {
      const record = records.get(keyOf(tenantId, id));
      return record && structuredClone(record);
    },
    async list({ tenantId, status, limit }) {
      return [...records.values()]
        .filter(
          (record) => record.tenantId === tenantId && (status === undefined || record.status === status),
        )
        .sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id))
        .slice(0, limit ?? Number.POSITIVE_INFINITY)
        .map((record) => structuredClone(record));
    },
    async decide(input) {
      const id = keyOf(input.tenantId, input.id);
      const { outcome, write } = decideTransition(records.get(id), input);
      if (write) records.set(id, write);
      return structuredClone(outcome);
    },
    async finish(input) {
      const id = keyOf(input.tenantId, input.id);
      const finished = finishTransition(records.get(id), structuredClone(input));
      if (finished) records.set(id, finished);
      return finished !== undefined;
    },
    async interrupt({ tenantId, id, interruption }) {
      const record = records.get(keyOf(tenantId, id));
      if (record?.status !== "approved") return false;
      records.set(keyOf(tenantId, id), {
        ...record,
        status: "interrupted",
        interruption: { ...interruption },
      });
      return true;
    },
    async retry(input) {
      const id = keyOf(input.tenantId, input.id);
      const { outcome, write } = retryTransition(records.get(id), input);
      if (write) records.set(id, write);
      return structuredClone(outcome);
    },
    async listApproved({ limit }) {
      return [...records.values()]
        .filter((record) => record.status === "approved")
        .sort((a, b) => (a.decidedAt ?? 0) - (b.decidedAt ?? 0))
        .slice(0, limit)
        .map((record) => structuredClone(record));
    },
    async expire({ now }) {
      let expired = 0;
      for (const [id, record] of records) {
        if (record.status === "pending" && record.expiresAt <= now) {
          records.set(id, { ...record, status: "expired" });
          expired++;
        }
      }
      return expired;
    },
    async waiting({ now }) {
      let count = 0;
      let oldestCreatedAt: number | undefined;
      for (const record of records.values()) {
        if (record.status !== "pending" || record.expiresAt <= now) continue;
        count++;
        oldestCreatedAt = Math.min(oldestCreatedAt ?? record.createdAt, record.createdAt);
      }
      return { count, oldestCreatedAt };
    },
  };
}
