/** @module The store ports. Every method names its tenant: a record is never found by id alone. */
import type { Effect } from "../declaration/effect.js";
import type { Envelope, ErrorCode } from "../seam/envelope.js";

export interface TenantKey {
  tenantId: string;
}

// ---- idempotency -----------------------------------------------------------------------------

export type IdempotencyStatus = "in_progress" | "completed" | "unknown";

export interface IdempotencyRecord {
  tenantId: string;
  key: string;
  fingerprint: string;
  toolName: string;
  status: IdempotencyStatus;
  /** Who holds the lease; `complete` must present it, so a claim that lost its lease cannot overwrite. */
  claimId: string;
  envelope: Envelope | undefined;
  leaseUntil: number;
  createdAt: number;
  updatedAt: number;
  /** Completed records are purged after this instant; in-flight and unknown ones are kept for a human. */
  retainUntil: number;
}

export interface ClaimInput extends TenantKey {
  key: string;
  fingerprint: string;
  toolName: string;
  claimId: string;
  /** May a claim whose lease expired be taken over (external-write), or is its outcome unknown (destructive)? */
  reclaimable: boolean;
  now: number;
  leaseMs: number;
  retentionMs: number;
}

export type ClaimOutcome =
  | { kind: "claimed"; reclaimed: boolean }
  | { kind: "completed"; envelope: Envelope }
  | { kind: "in_progress"; leaseUntil: number }
  | { kind: "conflict" }
  | { kind: "unknown"; since: number };

export interface CompleteInput extends TenantKey {
  key: string;
  claimId: string;
  envelope: Envelope;
  now: number;
  retentionMs: number;
}

export interface IdempotencyStore {
  /** Atomically claims the key, or says why not. */
  claim(input: ClaimInput): Promise<ClaimOutcome>;
  /** Stores the result; false when this claim no longer holds the key. */
  complete(input: CompleteInput): Promise<boolean>;
  get(input: TenantKey & { key: string }): Promise<IdempotencyRecord | undefined>;
  list(input: TenantKey & { status?: IdempotencyStatus }): Promise<IdempotencyRecord[]>;
  /**
   * Deletes completed records past their retention; returns how many. Housekeeping over every tenant at
   * once, run by the host (`Seam.sweep`), never on a caller's behalf.
   */
  purge(input: { now: number }): Promise<number>;
}

// ---- approvals -------------------------------------------------------------------------------

export const APPROVAL_STATUSES = ["pending", "approved", "denied", "expired", "executed", "refused"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export interface ApprovalRecord {
  tenantId: string;
  id: string;
  toolName: string;
  toolVersion: string;
  effect: Effect;
  definitionHash: string;
  input: unknown;
  /** What will happen, in words, for the human deciding. */
  description: string;
  requestedBy: string;
  runId: string;
  toolCallId: string;
  idempotencyKey: string;
  status: ApprovalStatus;
  createdAt: number;
  expiresAt: number;
  decidedBy: string | undefined;
  decidedAt: number | undefined;
  note: string | undefined;
  /** The outcome once resumed (executed) or refused at resume. */
  result: Envelope | undefined;
  finishedAt: number | undefined;
}

export type NewApproval = Omit<
  ApprovalRecord,
  "status" | "decidedBy" | "decidedAt" | "note" | "result" | "finishedAt"
>;

export interface DecideInput extends TenantKey {
  id: string;
  decision: "approved" | "denied";
  by: string;
  at: number;
  note?: string;
}

export type DecideOutcome =
  | { ok: true; record: ApprovalRecord }
  | { ok: false; reason: "not_found" | "already_decided" | "expired"; record: ApprovalRecord | undefined };

export interface FinishInput extends TenantKey {
  id: string;
  status: "executed" | "refused";
  result: Envelope;
  at: number;
}

export interface ApprovalStore {
  create(record: NewApproval): Promise<ApprovalRecord>;
  get(input: TenantKey & { id: string }): Promise<ApprovalRecord | undefined>;
  list(input: TenantKey & { status?: ApprovalStatus; limit?: number }): Promise<ApprovalRecord[]>;
  /** Pending → approved/denied, once: the first decision to commit wins. An expired one becomes `expired`. */
  decide(input: DecideInput): Promise<DecideOutcome>;
  /** Approved → executed/refused, once; false when it was not approved (or already finished). */
  finish(input: FinishInput): Promise<boolean>;
  /** Marks every pending approval past its expiry as expired; returns how many. Housekeeping, like `purge`. */
  expire(input: { now: number }): Promise<number>;
}

// ---- audit -----------------------------------------------------------------------------------

export type AuditKind = "tool-call" | "approval-request" | "approval-decision" | "approval-resume";

export interface AuditEvent {
  tenantId: string;
  id: string;
  at: number;
  kind: AuditKind;
  /** Who acted: the calling principal, or the human deciding an approval. */
  actor: string;
  runId: string | undefined;
  toolCallId: string | undefined;
  tool: string;
  toolVersion: string | undefined;
  effect: Effect | undefined;
  /** `ok`, an error code, or the decision taken. */
  outcome: "ok" | ErrorCode | "approved" | "denied" | "replayed";
  durationMs: number | undefined;
  approvalId: string | undefined;
  idempotencyKey: string | undefined;
  /** How approval was settled: `never`, `always`, `policy:allow` … */
  approval: string | undefined;
  message: string | undefined;
}

/** Where the seam writes; kept apart from reading so a sink can be a log shipper. */
export interface AuditSink {
  record(event: AuditEvent): void | Promise<void>;
}

/** Where a page of the audit trail starts: just after this event, going back in time. */
export interface AuditCursor {
  at: number;
  id: string;
}

export interface AuditStore extends AuditSink {
  /** Newest first; `before` pages back from an event a previous page ended with, losing none recorded in its millisecond. */
  list(
    input: TenantKey & { limit?: number; tool?: string; since?: number; before?: AuditCursor },
  ): Promise<AuditEvent[]>;
}

/** The stores a seam needs, as one bundle an adapter can provide. */
export interface Stores {
  approvals: ApprovalStore;
  idempotency: IdempotencyStore;
  audit: AuditStore;
}
