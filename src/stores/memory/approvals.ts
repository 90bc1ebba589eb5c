/** @module In-memory approval store: the reference adapter. */
import { decideTransition, pendingApproval } from "../transitions.js";
import type { ApprovalRecord, ApprovalStore } from "../types.js";

const keyOf = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

export function createMemoryApprovalStore(): ApprovalStore {
  const records = new Map<string, ApprovalRecord>();
  return {
    async create(record) {
      const id = keyOf(record.tenantId, record.id);
      if (records.has(id)) throw new Error(`approval ${record.id} already exists`);
      const stored = pendingApproval(structuredClone(record));
      records.set(id, stored);
      return structuredClone(stored);
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
      const record = records.get(id);
      if (record?.status !== "approved") return false;
      records.set(id, {
        ...record,
        status: input.status,
        result: structuredClone(input.result),
        finishedAt: input.at,
      });
      return true;
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
  };
}
