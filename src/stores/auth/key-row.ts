/** @module How an `auth_keys` row reads back as a record or a caller. */

import type { ApiKeyRecord, Caller } from "../../ports/auth-store.js";
import type { AssistantMode } from "../../seam/context.js";

export interface KeyRow {
  id: string;
  secret_hash: Buffer;
  tenant_id: string;
  principal_id: string;
  /** A JSON array of strings. */
  scopes: string;
  mode: AssistantMode;
  operator: 0 | 1;
  label: string | null;
  created_at: number;
  revoked_at: number | null;
}

export const KEY_COLUMNS =
  "id, secret_hash, tenant_id, principal_id, scopes, mode, operator, label, created_at, revoked_at";

export function toKeyRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    principalId: row.principal_id,
    scopes: JSON.parse(row.scopes) as string[],
    mode: row.mode,
    operator: row.operator === 1,
    label: row.label ?? undefined,
    createdAt: row.created_at,
    revokedAt: row.revoked_at ?? undefined,
  };
}

/** Frozen, so a handler cannot widen the scopes of the caller it was given. */
export function toCaller(row: KeyRow): Caller {
  return Object.freeze({
    keyId: row.id,
    tenantId: row.tenant_id,
    principalId: row.principal_id,
    scopes: Object.freeze(JSON.parse(row.scopes) as string[]),
    mode: row.mode,
    operator: row.operator === 1,
  });
}
