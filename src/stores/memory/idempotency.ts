/** @module In-memory idempotency store: the reference adapter. */
import { claimTransition, completable } from "../../ports/store-transitions.js";
import type { AuditStore, ClaimOutcome, IdempotencyRecord, IdempotencyStore } from "../../ports/stores.js";

const keyOf = (tenantId: string, key: string) => `${tenantId}\u0000${key}`;

/** With `audit`, a completion's audit event is recorded there with it, in the same synchronous step. */
export function createMemoryIdempotencyStore(options: { audit?: AuditStore } = {}): IdempotencyStore {
  const { audit } = options;
  const records = new Map<string, IdempotencyRecord>();
  return {
    ...(audit ? { completionAudit: audit } : {}),
    async claim(input): Promise<ClaimOutcome> {
      const id = keyOf(input.tenantId, input.key);
      const { outcome, write } = claimTransition(records.get(id), input);
      if (write) records.set(id, write);
      return structuredClone(outcome);
    },
    async complete(input) {
      const id = keyOf(input.tenantId, input.key);
      const record = records.get(id);
      if (!record || !completable(record, input.claimId)) return false;
      records.set(id, {
        ...record,
        status: "completed",
        envelope: structuredClone(input.envelope),
        updatedAt: input.now,
        retainUntil: input.now + input.retentionMs,
      });
      if (input.audit) void audit?.record(input.audit);
      return true;
    },
    async heartbeat({ tenantId, key, claimId, now, leaseUntil }) {
      const record = records.get(keyOf(tenantId, key));
      if (record?.claimId !== claimId || record.status !== "in_progress") return false;
      record.heartbeatAt = now;
      record.leaseUntil = leaseUntil;
      return true;
    },
    async abandon({ tenantId, key, claimId, now }) {
      const record = records.get(keyOf(tenantId, key));
      if (record?.claimId !== claimId || record.status !== "in_progress") return false;
      record.status = "unknown";
      record.updatedAt = now;
      return true;
    },
    async get({ tenantId, key }) {
      const record = records.get(keyOf(tenantId, key));
      return record && structuredClone(record);
    },
    async list({ tenantId, status }) {
      return [...records.values()]
        .filter(
          (record) => record.tenantId === tenantId && (status === undefined || record.status === status),
        )
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((record) => structuredClone(record));
    },
    async purge({ now }) {
      let removed = 0;
      for (const [id, record] of records) {
        if (record.status === "completed" && record.retainUntil <= now) {
          records.delete(id);
          removed++;
        }
      }
      return removed;
    },
  };
}
