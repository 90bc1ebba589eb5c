/**
 * @module The core stores' rows as the SQL adapters (SQLite, PostgreSQL) keep them: one table shape, one
 * column list and one row-to-record reading per store. The backends differ only in how a JSON column comes
 * back — SQLite as text, PostgreSQL's jsonb as the value — which each passes as `json`.
 */
import type { Effect } from "../../declaration/effect.js";
import type { CredentialKind, CredentialMetadata } from "../../ports/credential-store.js";
import type {
  ApprovalRecord,
  ApprovalStatus,
  AuditEvent,
  AuditKind,
  IdempotencyRecord,
  IdempotencyStatus,
  Interruption,
} from "../../ports/stores.js";
import type { Envelope } from "../../seam/envelope.js";

/** Reads a JSON column as its backend returns it; SQL NULL is undefined. */
export type JsonColumn = (value: unknown) => unknown;

/** SQLite keeps JSON as text. */
export const jsonText: JsonColumn = (value) => (value === null ? undefined : JSON.parse(value as string));
/** PostgreSQL's driver parses jsonb already. */
export const jsonValue: JsonColumn = (value) => value ?? undefined;

/** An audit event's sixteen column values, in AUDIT_COLUMNS order. */
export const auditParams = (event: AuditEvent) =>
  [
    event.tenantId,
    event.id,
    event.at,
    event.kind,
    event.actor,
    event.runId ?? null,
    event.toolCallId ?? null,
    event.tool,
    event.toolVersion ?? null,
    event.effect ?? null,
    event.outcome,
    event.durationMs ?? null,
    event.approvalId ?? null,
    event.idempotencyKey ?? null,
    event.approval ?? null,
    event.message ?? null,
  ] satisfies unknown[];

export interface AuditRow {
  tenant_id: string;
  id: string;
  at: number;
  kind: AuditKind;
  actor: string;
  run_id: string | null;
  tool_call_id: string | null;
  tool: string;
  tool_version: string | null;
  effect: Effect | null;
  outcome: AuditEvent["outcome"];
  duration_ms: number | null;
  approval_id: string | null;
  idempotency_key: string | null;
  approval: string | null;
  message: string | null;
}

export const AUDIT_COLUMNS = `tenant_id, id, at, kind, actor, run_id, tool_call_id, tool, tool_version, effect, outcome,
  duration_ms, approval_id, idempotency_key, approval, message`;

export const auditEventOf = (row: AuditRow): AuditEvent => ({
  tenantId: row.tenant_id,
  id: row.id,
  at: row.at,
  kind: row.kind,
  actor: row.actor,
  runId: row.run_id ?? undefined,
  toolCallId: row.tool_call_id ?? undefined,
  tool: row.tool,
  toolVersion: row.tool_version ?? undefined,
  effect: row.effect ?? undefined,
  outcome: row.outcome,
  durationMs: row.duration_ms ?? undefined,
  approvalId: row.approval_id ?? undefined,
  idempotencyKey: row.idempotency_key ?? undefined,
  approval: row.approval ?? undefined,
  message: row.message ?? undefined,
});

export interface ApprovalRow {
  tenant_id: string;
  id: string;
  tool_name: string;
  tool_version: string;
  effect: Effect;
  definition_hash: string;
  input: unknown;
  description: string;
  requested_by: string;
  run_id: string;
  tool_call_id: string;
  idempotency_key: string;
  fingerprint: string;
  status: ApprovalStatus;
  created_at: number;
  expires_at: number;
  decided_by: string | null;
  decided_at: number | null;
  note: string | null;
  result: unknown;
  finished_at: number | null;
  interruption: unknown;
  retried_by: string | null;
  retried_at: number | null;
  answers: unknown;
}

export const APPROVAL_COLUMNS = `tenant_id, id, tool_name, tool_version, effect, definition_hash, input, description,
  requested_by, run_id, tool_call_id, idempotency_key, fingerprint, status, created_at, expires_at,
  decided_by, decided_at, note, result, finished_at, interruption, retried_by, retried_at, answers`;

export const approvalRecordOf = (row: ApprovalRow, json: JsonColumn): ApprovalRecord => ({
  tenantId: row.tenant_id,
  id: row.id,
  toolName: row.tool_name,
  toolVersion: row.tool_version,
  effect: row.effect,
  definitionHash: row.definition_hash,
  input: json(row.input),
  description: row.description,
  requestedBy: row.requested_by,
  runId: row.run_id,
  toolCallId: row.tool_call_id,
  idempotencyKey: row.idempotency_key,
  fingerprint: row.fingerprint,
  status: row.status,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  decidedBy: row.decided_by ?? undefined,
  decidedAt: row.decided_at ?? undefined,
  note: row.note ?? undefined,
  result: json(row.result) as Envelope | undefined,
  finishedAt: row.finished_at ?? undefined,
  interruption: json(row.interruption) as Interruption | undefined,
  retriedBy: row.retried_by ?? undefined,
  retriedAt: row.retried_at ?? undefined,
  answers: json(row.answers),
});

export interface IdempotencyRow {
  tenant_id: string;
  key: string;
  fingerprint: string;
  tool_name: string;
  status: IdempotencyStatus;
  claim_id: string;
  envelope: unknown;
  lease_until: number;
  created_at: number;
  updated_at: number;
  retain_until: number;
  claimed_at: number;
  claimed_by: string;
  holder: string;
  heartbeat_at: number;
}

export const IDEMPOTENCY_COLUMNS = `tenant_id, key, fingerprint, tool_name, status, claim_id, envelope,
  lease_until, created_at, updated_at, retain_until, claimed_at, claimed_by, holder, heartbeat_at`;

export const idempotencyRecordOf = (row: IdempotencyRow, json: JsonColumn): IdempotencyRecord => ({
  tenantId: row.tenant_id,
  key: row.key,
  fingerprint: row.fingerprint,
  toolName: row.tool_name,
  status: row.status,
  claimId: row.claim_id,
  envelope: json(row.envelope) as Envelope | undefined,
  leaseUntil: row.lease_until,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  retainUntil: row.retain_until,
  claimedAt: row.claimed_at,
  claimedBy: row.claimed_by,
  holder: row.holder,
  heartbeatAt: row.heartbeat_at,
});

export interface CredentialRow {
  tenant_id: string;
  principal_id: string;
  ref: string;
  kind: CredentialKind;
  provider: string;
  /** A JSON array: text in SQLite, jsonb in PostgreSQL. */
  scopes: unknown;
  account: string | null;
  expires_at: number | null;
  /** 0/1 in SQLite, a boolean in PostgreSQL. */
  has_refresh: number | boolean;
  key_id: string | null;
  sealed: string | null;
  version: number;
  connected_by: string;
  created_at: number;
  updated_at: number;
  revoked_at: number | null;
  revoked_reason: string | null;
}

/** What a credential row says of its credential, never its secrets. */
export const credentialMetadataOf = (row: CredentialRow, json: JsonColumn): CredentialMetadata => ({
  tenantId: row.tenant_id,
  principalId: row.principal_id === "" ? undefined : row.principal_id,
  ref: row.ref,
  kind: row.kind,
  provider: row.provider,
  scopes: json(row.scopes) as string[],
  account: row.account ?? undefined,
  expiresAt: row.expires_at ?? undefined,
  hasRefreshToken: row.has_refresh === true || row.has_refresh === 1,
  version: row.version,
  connectedBy: row.connected_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  revokedAt: row.revoked_at ?? undefined,
  revokedReason: row.revoked_reason ?? undefined,
});
