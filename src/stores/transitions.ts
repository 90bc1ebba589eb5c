/**
 * @module The state transitions of idempotency records and approvals, as pure functions.
 * Every adapter applies them inside its own atomic step, so the rules exist once.
 */
import type {
  ApprovalRecord,
  ClaimInput,
  ClaimOutcome,
  DecideInput,
  DecideOutcome,
  IdempotencyRecord,
  NewApproval,
} from "./types.js";

/** What a claim does to the existing record (if any): the outcome, and the record to write, if any. */
export function claimTransition(
  existing: IdempotencyRecord | undefined,
  input: ClaimInput,
): { outcome: ClaimOutcome; write: IdempotencyRecord | undefined } {
  const fresh = (): IdempotencyRecord => ({
    tenantId: input.tenantId,
    key: input.key,
    fingerprint: input.fingerprint,
    toolName: input.toolName,
    status: "in_progress",
    claimId: input.claimId,
    envelope: undefined,
    leaseUntil: input.now + input.leaseMs,
    createdAt: input.now,
    updatedAt: input.now,
    retainUntil: input.now + input.retentionMs,
  });
  const purgeable = existing?.status === "completed" && existing.retainUntil <= input.now;
  if (!existing || purgeable) return { outcome: { kind: "claimed", reclaimed: false }, write: fresh() };
  if (existing.fingerprint !== input.fingerprint) return { outcome: { kind: "conflict" }, write: undefined };
  if (existing.status === "completed" && existing.envelope) {
    return { outcome: { kind: "completed", envelope: existing.envelope }, write: undefined };
  }
  if (existing.status === "unknown")
    return { outcome: { kind: "unknown", since: existing.updatedAt }, write: undefined };
  if (existing.leaseUntil > input.now) {
    return { outcome: { kind: "in_progress", leaseUntil: existing.leaseUntil }, write: undefined };
  }
  if (input.reclaimable) {
    return {
      outcome: { kind: "claimed", reclaimed: true },
      write: {
        ...existing,
        claimId: input.claimId,
        leaseUntil: input.now + input.leaseMs,
        updatedAt: input.now,
      },
    };
  }
  return {
    outcome: { kind: "unknown", since: input.now },
    write: { ...existing, status: "unknown", updatedAt: input.now },
  };
}

/** A new approval as stored. */
export function pendingApproval(record: NewApproval): ApprovalRecord {
  return {
    ...record,
    status: "pending",
    decidedBy: undefined,
    decidedAt: undefined,
    note: undefined,
    result: undefined,
    finishedAt: undefined,
  };
}

/** What a decision does to an approval: the first decision wins; a late one on an expired approval expires it. */
export function decideTransition(
  existing: ApprovalRecord | undefined,
  input: DecideInput,
): { outcome: DecideOutcome; write: ApprovalRecord | undefined } {
  if (!existing) return { outcome: { ok: false, reason: "not_found", record: undefined }, write: undefined };
  if (existing.status === "pending" && existing.expiresAt <= input.at) {
    const expired: ApprovalRecord = { ...existing, status: "expired" };
    return { outcome: { ok: false, reason: "expired", record: expired }, write: expired };
  }
  if (existing.status !== "pending") {
    const reason = existing.status === "expired" ? "expired" : "already_decided";
    return { outcome: { ok: false, reason, record: existing }, write: undefined };
  }
  const decided: ApprovalRecord = {
    ...existing,
    status: input.decision,
    decidedBy: input.by,
    decidedAt: input.at,
    note: input.note,
  };
  return { outcome: { ok: true, record: decided }, write: decided };
}
