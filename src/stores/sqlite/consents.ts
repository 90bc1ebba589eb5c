/**
 * @module SQLite consent store: pending consents (their PKCE verifier and authorization URL sealed under the
 * operator's key, like credentials) and parked calls, in the shared state file. Opening a consent and
 * parking a call each run in one immediate transaction, so processes sharing the file agree.
 */
import type Database from "better-sqlite3";
import type { ConsentStore, NewConsentRequest, NewParkedCall } from "../../ports/consent-store.js";
import { covers } from "../../ports/consent-store.js";
import {
  type ConsentRequestRow,
  consentRequestOf,
  NEW_CONSENT_COLUMNS,
  NEW_PARKED_CALL_COLUMNS,
  newConsentParams,
  newParkedCallParams,
  type ParkedCallRow,
  parkedCallOf,
} from "../sql/consent-rows.js";
import { jsonText } from "../sql/rows.js";
import { sealingBox } from "../sql/sealing.js";
import { checkSealingKey } from "./credentials.js";

const toCall = parkedCallOf(jsonText);

/** Opens the consent store on `db` under the same key as the credentials; throws without it or with another. */
export function createSqliteConsentStore(db: Database.Database, key: Uint8Array | undefined): ConsentStore {
  const box = sealingBox("consent", key);
  checkSealingKey(db, box, ["consent_requests"]);
  const toRequest = consentRequestOf(box, jsonText);

  const pendingOf = db.prepare<[string, string, string, number], ConsentRequestRow>(
    `SELECT * FROM consent_requests WHERE tenant_id = ? AND principal_id = ? AND credential_ref = ?
       AND status = 'pending' AND expires_at > ? ORDER BY created_at`,
  );
  const insertRequest = db.prepare<ReturnType<typeof newConsentParams>>(
    `INSERT INTO consent_requests (${NEW_CONSENT_COLUMNS}, status)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')`,
  );
  const getRequest = db.prepare<[string, string], ConsentRequestRow>(
    "SELECT * FROM consent_requests WHERE tenant_id = ? AND id = ?",
  );
  const byState = db.prepare<[string], ConsentRequestRow>(
    "SELECT * FROM consent_requests WHERE state_hash = ?",
  );
  const use = db.prepare<[number, string, string]>(
    "UPDATE consent_requests SET status = 'used', used_at = ? WHERE tenant_id = ? AND id = ? AND status = 'pending'",
  );
  const newestByKey = db.prepare<[string, string], ParkedCallRow>(
    `SELECT * FROM parked_calls WHERE tenant_id = ? AND idempotency_key = ? AND status != 'expired'
     ORDER BY created_at DESC LIMIT 1`,
  );
  const insertCall = db.prepare<ReturnType<typeof newParkedCallParams>>(
    `INSERT INTO parked_calls (${NEW_PARKED_CALL_COLUMNS}, status)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'waiting')`,
  );
  const getCall = db.prepare<[string, string], ParkedCallRow>(
    "SELECT * FROM parked_calls WHERE tenant_id = ? AND id = ?",
  );
  const waiting = db.prepare<[string, string, string], ParkedCallRow>(
    `SELECT * FROM parked_calls WHERE tenant_id = ? AND requested_by = ? AND credential_ref = ? AND status = 'waiting'
     ORDER BY created_at, id`,
  );
  const settle = db.prepare<[string, number, string, string]>(
    `UPDATE parked_calls SET status = 'resumed', result = ?, resumed_at = ?
     WHERE tenant_id = ? AND id = ? AND status = 'waiting'`,
  );
  const expireCalls = db.prepare<[number]>(
    "UPDATE parked_calls SET status = 'expired' WHERE status = 'waiting' AND expires_at <= ?",
  );
  const dropRequests = db.prepare<[number]>(
    "DELETE FROM consent_requests WHERE status = 'used' OR expires_at <= ?",
  );

  const open = db.transaction((request: NewConsentRequest) => {
    for (const row of pendingOf.all(
      request.tenantId,
      request.principalId,
      request.credentialRef,
      request.createdAt,
    )) {
      const pending = toRequest(row);
      if (covers(pending, request.scopes, request.createdAt)) return { created: false, request: pending };
    }
    insertRequest.run(...newConsentParams(box, request));
    return {
      created: true,
      request: toRequest(getRequest.get(request.tenantId, request.id) as ConsentRequestRow),
    };
  });
  const take = db.transaction((stateHash: string, consentIds: readonly string[], now: number) => {
    const row = byState.get(stateHash);
    if (row?.status !== "pending" || row.expires_at <= now || !consentIds.includes(row.id)) return undefined;
    use.run(now, row.tenant_id, row.id);
    return toRequest({ ...row, status: "used", used_at: now });
  });
  const park = db.transaction((call: NewParkedCall) => {
    const parked = newestByKey.get(call.tenantId, call.idempotencyKey);
    if (parked) return { created: false, call: toCall(parked) };
    insertCall.run(...newParkedCallParams(call));
    return { created: true, call: toCall(getCall.get(call.tenantId, call.id) as ParkedCallRow) };
  });
  const expire = db.transaction(
    (now: number) => expireCalls.run(now).changes + dropRequests.run(now).changes,
  );

  return {
    async open(request) {
      return open.immediate(request);
    },
    async take({ stateHash, consentIds, now }) {
      return take.immediate(stateHash, consentIds, now);
    },
    async getRequest({ tenantId, id }) {
      const row = getRequest.get(tenantId, id);
      return row && toRequest(row);
    },
    async park(call) {
      return park.immediate(call);
    },
    async getCall({ tenantId, id }) {
      const row = getCall.get(tenantId, id);
      return row && toCall(row);
    },
    async waiting({ tenantId, principalId, credentialRef }) {
      return waiting.all(tenantId, principalId, credentialRef).map(toCall);
    },
    async settle({ tenantId, id, result, at }) {
      return settle.run(JSON.stringify(result), at, tenantId, id).changes === 1;
    },
    async expire({ now }) {
      return expire.immediate(now);
    },
  };
}
