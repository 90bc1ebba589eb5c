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
  /** The holder renews it while the call runs (`heartbeat`); past it the claim is presumed lost. */
  leaseUntil: number;
  createdAt: number;
  updatedAt: number;
  /** Completed records are purged after this instant; in-flight and unknown ones are kept for a human. */
  retainUntil: number;
  /** When the current claim began: a takeover or an operator's retry starts a new one. */
  claimedAt: number;
  /** The principal whose call holds (or last held) the claim; empty for records older than the field. */
  claimedBy: string;
  /** The process that holds (or last held) it, as `host:pid`; empty for records older than the field. */
  holder: string;
  /** The holder's last sign of life: the claim, then each renewal of its lease. */
  heartbeatAt: number;
}

/** What is known of a call whose outcome was lost: what an operator reads before deciding to retry. */
export interface LostCallEvidence {
  startedAt: number;
  /** The principal whose call it was. */
  by: string;
  /** The process that ran it. */
  holder: string;
  lastHeartbeat: number;
}

/** The evidence a claim record holds about its run. */
export function evidenceOf(record: IdempotencyRecord): LostCallEvidence {
  return {
    startedAt: record.claimedAt,
    by: record.claimedBy,
    holder: record.holder,
    lastHeartbeat: record.heartbeatAt,
  };
}

export interface ClaimInput extends TenantKey {
  key: string;
  fingerprint: string;
  toolName: string;
  claimId: string;
  /** The principal making the call, kept as evidence. */
  principalId: string;
  /** The process making it (`host:pid`), kept as evidence. */
  holder: string;
  /**
   * May a claim whose lease expired be taken over and run again? Only when the tool's provider
   * deduplicates on the key (or the call only reads); otherwise the lost outcome becomes `unknown`.
   */
  reclaimable: boolean;
  /**
   * An operator's retry: an `unknown` outcome, or a claim whose lease expired, is claimed again and run.
   * Never set on a caller's behalf.
   */
  retryUnknown?: boolean;
  now: number;
  leaseMs: number;
  retentionMs: number;
}

export type ClaimOutcome =
  | { kind: "claimed"; reclaimed: boolean }
  | { kind: "completed"; envelope: Envelope }
  | { kind: "in_progress"; leaseUntil: number }
  | { kind: "conflict" }
  | { kind: "unknown"; since: number; evidence: LostCallEvidence };

export interface CompleteInput extends TenantKey {
  key: string;
  claimId: string;
  envelope: Envelope;
  now: number;
  retentionMs: number;
  /**
   * The call's audit event, for a store with a `completionAudit`: written to it in the completion's own
   * transaction, so no stored outcome (no side effect) is ever without its event. Not written when the
   * completion is not (false).
   */
  audit?: AuditEvent;
}

export interface ClaimRef extends TenantKey {
  key: string;
  claimId: string;
  now: number;
}

export interface IdempotencyStore {
  /**
   * The audit store `complete` writes an `audit` event to, in the completion's transaction. The seam hands
   * the event over only when this is the bundle's own `audit`, so a host that swaps the audit store keeps
   * every event in its own.
   */
  readonly completionAudit?: AuditStore;
  /** Atomically claims the key, or says why not. */
  claim(input: ClaimInput): Promise<ClaimOutcome>;
  /**
   * Stores the result; false when this claim no longer holds the key. A claim marked `unknown` while its
   * holder was still running is completed too: the real outcome replaces the unknown one.
   */
  complete(input: CompleteInput): Promise<boolean>;
  /** The holder is alive: records the beat and moves the lease to `leaseUntil`; false when it lost the claim. */
  heartbeat(input: ClaimRef & { leaseUntil: number }): Promise<boolean>;
  /**
   * The holder gives up on a call it cannot see to its end (the process is stopping): in progress →
   * unknown, never run again without an operator. False when it no longer holds the claim.
   */
  abandon(input: ClaimRef): Promise<boolean>;
  get(input: TenantKey & { key: string }): Promise<IdempotencyRecord | undefined>;
  /**
   * Resolves when the key's claim may have left `in_progress`, or after `timeoutMs`. A store that hears
   * other processes' completions (PostgreSQL's notifications) provides it, and a caller waiting on a call
   * in flight elsewhere is woken by it instead of polling.
   */
  settled?(input: TenantKey & { key: string; timeoutMs: number }): Promise<void>;
  list(input: TenantKey & { status?: IdempotencyStatus }): Promise<IdempotencyRecord[]>;
  /**
   * Deletes completed records past their retention; returns how many. Housekeeping over every tenant at
   * once, run by the host (`Seam.sweep`), never on a caller's behalf.
   */
  purge(input: { now: number }): Promise<number>;
}

// ---- approvals -------------------------------------------------------------------------------

export const APPROVAL_STATUSES = [
  "pending",
  "approved",
  "denied",
  "expired",
  "executed",
  "refused",
  "interrupted",
] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/**
 * Why an approved call did not reach its end: the process stopped past its drain deadline (`shutdown`),
 * or it was found with its holder gone (`lost`). The run may have had its side effect, or not.
 */
export interface Interruption extends Partial<LostCallEvidence> {
  reason: "shutdown" | "lost";
  at: number;
}

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
  /** The call's fingerprint (caller, tool, arguments): another call under the same key is a conflict. */
  fingerprint: string;
  status: ApprovalStatus;
  createdAt: number;
  expiresAt: number;
  decidedBy: string | undefined;
  decidedAt: number | undefined;
  note: string | undefined;
  /** The outcome once resumed (executed) or refused at resume. */
  result: Envelope | undefined;
  finishedAt: number | undefined;
  /** Set when an approved run was interrupted; kept after an operator's retry as its history. */
  interruption: Interruption | undefined;
  /** The operator who last ran an interrupted call again, and when. */
  retriedBy: string | undefined;
  retriedAt: number | undefined;
  /**
   * What the human answered with the decision, for a tool that asks (ask_questions): recorded in the
   * decision's own write, so a call is answered once and its answers are never without their decision.
   */
  answers: unknown;
}

export type NewApproval = Omit<
  ApprovalRecord,
  | "status"
  | "decidedBy"
  | "decidedAt"
  | "note"
  | "result"
  | "finishedAt"
  | "interruption"
  | "retriedBy"
  | "retriedAt"
  | "answers"
>;

export interface DecideInput extends TenantKey {
  id: string;
  decision: "approved" | "denied";
  by: string;
  at: number;
  note?: string;
  /** Stored with the decision, in the same write; already checked against the approval's questions. */
  answers?: unknown;
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

export interface RetryInput extends TenantKey {
  id: string;
  by: string;
  at: number;
}

export type RetryOutcome =
  | { ok: true; record: ApprovalRecord }
  | { ok: false; reason: "not_found" | "not_interrupted"; record: ApprovalRecord | undefined };

export interface ApprovalStore {
  /** The audit store `park` writes its `audit` event to, in the parking's transaction (as `completionAudit`). */
  readonly parkingAudit?: AuditStore;
  create(record: NewApproval): Promise<ApprovalRecord>;
  /**
   * One approval per idempotency key: creates `record` unless the tenant already has an approval under
   * its key, in which case that one (the newest) is returned untouched. Atomic across processes, so
   * duplicates of one call park it once. With `audit` (the approval request's event, for a store with a
   * `parkingAudit`), the event is written in the same transaction as the approval it announces, and
   * only when `record` is the one created.
   */
  park(record: NewApproval, audit?: AuditEvent): Promise<{ created: boolean; record: ApprovalRecord }>;
  get(input: TenantKey & { id: string }): Promise<ApprovalRecord | undefined>;
  list(input: TenantKey & { status?: ApprovalStatus; limit?: number }): Promise<ApprovalRecord[]>;
  /** Pending → approved/denied, once: the first decision to commit wins. An expired one becomes `expired`. */
  decide(input: DecideInput): Promise<DecideOutcome>;
  /**
   * Approved (or interrupted, when the run turns out to have ended after all) → executed/refused, once;
   * false otherwise.
   */
  finish(input: FinishInput): Promise<boolean>;
  /** Approved → interrupted, with what is known; false when it was not approved. */
  interrupt(input: TenantKey & { id: string; interruption: Interruption }): Promise<boolean>;
  /** Interrupted → approved again by an operator's explicit retry. */
  retry(input: RetryInput): Promise<RetryOutcome>;
  /**
   * Approved approvals of every tenant, oldest decision first, up to `limit`: housekeeping looks for runs
   * that were lost, like `expire` does for undecided ones.
   */
  listApproved(input: { limit: number }): Promise<ApprovalRecord[]>;
  /** Marks every pending approval past its expiry as expired; returns how many. Housekeeping, like `purge`. */
  expire(input: { now: number }): Promise<number>;
  /**
   * Pending approvals of every tenant still open at `now` (those past their expiry can no longer be
   * approved, swept or not): how many, and when the oldest was created. One aggregate, for metrics.
   */
  waiting(input: { now: number }): Promise<WaitingApprovals>;
}

/** What `ApprovalStore.waiting` finds: the count, and the oldest one's `createdAt` (none when none wait). */
export interface WaitingApprovals {
  count: number;
  oldestCreatedAt: number | undefined;
}

// ---- audit -----------------------------------------------------------------------------------

export type AuditKind =
  | "tool-call"
  | "approval-request"
  | "approval-decision"
  | "approval-resume"
  | "approval-retry"
  /** A call whose outcome was lost: its process stopped under it, or it was found with its holder gone. */
  | "tool-call-interrupt"
  /** A user connected a credential through consent (never its token). */
  | "consent-grant"
  /** A scheduled prompt's occurrence: handed to the host (`ok`) or not (`not_authorized`). */
  | "schedule-prompt";

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
  /** `ok`, an error code, the decision taken, or `interrupted` for a call whose outcome was lost. */
  outcome: "ok" | ErrorCode | "approved" | "denied" | "replayed" | "interrupted";
  durationMs: number | undefined;
  approvalId: string | undefined;
  idempotencyKey: string | undefined;
  /** How approval was settled: `never`, `always`, `policy:allow` … */
  approval: string | undefined;
  message: string | undefined;
}

/**
 * Where the seam writes; kept apart from reading so a sink can be a log shipper. A sink that cannot write
 * an event either throws (the seam keeps the event and offers it again) or keeps it itself and says so
 * through `failure` until a write succeeds.
 */
export interface AuditSink {
  record(event: AuditEvent): void | Promise<void>;
  /** Writes what the sink holds back now; throws when it still cannot. */
  flush?(): void | Promise<void>;
  /** The error that keeps events waiting unwritten in the sink, or undefined when none wait. */
  failure?(): unknown;
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
