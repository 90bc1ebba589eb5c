/**
 * @module The state transitions of idempotency records and approvals, as pure functions.
 * Every adapter applies them inside its own atomic step, so the rules exist once.
 */
import {
  type ApprovalRecord,
  type ClaimInput,
  type ClaimOutcome,
  type DecideInput,
  type DecideOutcome,
  evidenceOf,
  type FinishInput,
  type IdempotencyRecord,
  type NewApproval,
  type RetryInput,
  type RetryOutcome,
} from "./stores.js";

/** What a claim does to the existing record (if any): the outcome, and the record to write, if any. */
export function claimTransition(
  existing: IdempotencyRecord | undefined,
  input: ClaimInput,
): { outcome: ClaimOutcome; write: IdempotencyRecord | undefined } {
  const claimed = {
    claimId: input.claimId,
    leaseUntil: input.now + input.leaseMs,
    updatedAt: input.now,
    claimedAt: input.now,
    claimedBy: input.principalId,
    holder: input.holder,
    heartbeatAt: input.now,
  };
  const purgeable = existing?.status === "completed" && existing.retainUntil <= input.now;
  if (!existing || purgeable) {
    const fresh: IdempotencyRecord = {
      tenantId: input.tenantId,
      key: input.key,
      fingerprint: input.fingerprint,
      toolName: input.toolName,
      status: "in_progress",
      envelope: undefined,
      createdAt: input.now,
      retainUntil: input.now + input.retentionMs,
      ...claimed,
    };
    return { outcome: { kind: "claimed", reclaimed: false }, write: fresh };
  }
  if (existing.fingerprint !== input.fingerprint) return { outcome: { kind: "conflict" }, write: undefined };
  if (existing.status === "completed" && existing.envelope) {
    return { outcome: { kind: "completed", envelope: existing.envelope }, write: undefined };
  }
  const lapsed = existing.status === "unknown" || existing.leaseUntil <= input.now;
  if (lapsed && input.retryUnknown) {
    const retried: IdempotencyRecord = { ...existing, ...claimed, status: "in_progress" };
    return { outcome: { kind: "claimed", reclaimed: true }, write: retried };
  }
  if (existing.status === "unknown") {
    return {
      outcome: { kind: "unknown", since: existing.updatedAt, evidence: evidenceOf(existing) },
      write: undefined,
    };
  }
  if (!lapsed) {
    return { outcome: { kind: "in_progress", leaseUntil: existing.leaseUntil }, write: undefined };
  }
  if (input.reclaimable) {
    return { outcome: { kind: "claimed", reclaimed: true }, write: { ...existing, ...claimed } };
  }
  return {
    outcome: { kind: "unknown", since: input.now, evidence: evidenceOf(existing) },
    write: { ...existing, status: "unknown", updatedAt: input.now },
  };
}

/** A completion is stored by the claim's holder, over its run in progress or an outcome since called unknown. */
export function completable(record: IdempotencyRecord | undefined, claimId: string): boolean {
  return record?.claimId === claimId && record.status !== "completed";
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
    interruption: undefined,
    retriedBy: undefined,
    retriedAt: undefined,
    answers: undefined,
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
    answers: input.answers,
  };
  return { outcome: { ok: true, record: decided }, write: decided };
}

/** Approved → executed or refused; an interrupted run that ended after all records its real outcome too. */
export function finishTransition(
  existing: ApprovalRecord | undefined,
  input: FinishInput,
): ApprovalRecord | undefined {
  if (existing?.status !== "approved" && existing?.status !== "interrupted") return undefined;
  return { ...existing, status: input.status, result: input.result, finishedAt: input.at };
}

/** Interrupted → approved, by an operator who chose to run the call again. */
export function retryTransition(
  existing: ApprovalRecord | undefined,
  input: RetryInput,
): { outcome: RetryOutcome; write: ApprovalRecord | undefined } {
  if (!existing) return { outcome: { ok: false, reason: "not_found", record: undefined }, write: undefined };
  if (existing.status !== "interrupted") {
    return { outcome: { ok: false, reason: "not_interrupted", record: existing }, write: undefined };
  }
  const retried: ApprovalRecord = {
    ...existing,
    status: "approved",
    retriedBy: input.by,
    retriedAt: input.at,
  };
  return { outcome: { ok: true, record: retried }, write: retried };
}
