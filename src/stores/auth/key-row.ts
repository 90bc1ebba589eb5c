/** @module How an `auth_keys` row reads back as a record or a caller, from SQLite or PostgreSQL alike. */
import type { ApiKeyRecord, Caller } from "../../ports/auth-store.js";
import type { AssistantMode } from "../../seam/context.js";

/** The columns as either backend returns them; the two differ only in how scopes and operator come back. */
export interface KeyRow {
  id: string;
  secret_hash: Buffer;
  tenant_id: string;
  principal_id: string;
  /** A JSON array of strings: text from SQLite, already parsed from PostgreSQL's jsonb. */
  scopes: string | string[];
  mode: AssistantMode;
  /** SQLite has no boolean: 0 or 1 there, a boolean in PostgreSQL. */
  operator: boolean | 0 | 1;
  label: string | null;
  created_at: number;
  revoked_at: number | null;
  /** An expiring key's end (OAuth access tokens); null for a key that does not expire. */
  valid_until: number | null;
}

export const KEY_COLUMNS =
  "id, secret_hash, tenant_id, principal_id, scopes, mode, operator, label, created_at, revoked_at, valid_until";

const scopesOf = (row: KeyRow): string[] =>
  typeof row.scopes === "string" ? (JSON.parse(row.scopes) as string[]) : [...row.scopes];

const isOperator = (row: KeyRow): boolean => row.operator === true || row.operator === 1;

export function toKeyRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    principalId: row.principal_id,
    scopes: scopesOf(row),
    mode: row.mode,
    operator: isOperator(row),
    label: row.label ?? undefined,
    createdAt: row.created_at,
    revokedAt: row.revoked_at ?? undefined,
    expiresAt: row.valid_until ?? undefined,
  };
}

/** Whether a key not revoked still verifies at `now`. */
export const unexpired = (row: KeyRow, now: number): boolean =>
  row.valid_until === null || row.valid_until > now;

/** Frozen, so a handler cannot widen the scopes of the caller it was given. */
export function toCaller(row: KeyRow): Caller {
  return Object.freeze({
    keyId: row.id,
    tenantId: row.tenant_id,
    principalId: row.principal_id,
    scopes: Object.freeze(scopesOf(row)),
    mode: row.mode,
    operator: isOperator(row),
  });
}
