/** @module In-memory consent store: the reference adapter. */
import {
  type ConsentRequest,
  type ConsentStore,
  covers,
  type ParkedCall,
} from "../../ports/consent-store.js";

const keyOf = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

export function createMemoryConsentStore(): ConsentStore {
  const requests = new Map<string, ConsentRequest>();
  const calls = new Map<string, ParkedCall>();
  return {
    async open(request) {
      for (const pending of requests.values()) {
        if (
          pending.tenantId === request.tenantId &&
          pending.principalId === request.principalId &&
          pending.credentialRef === request.credentialRef &&
          covers(pending, request.scopes, request.createdAt)
        ) {
          return { created: false, request: structuredClone(pending) };
        }
      }
      const stored: ConsentRequest = { ...structuredClone(request), status: "pending", usedAt: undefined };
      requests.set(keyOf(request.tenantId, request.id), stored);
      return { created: true, request: structuredClone(stored) };
    },
    async take({ stateHash, consentIds, now }) {
      for (const request of requests.values()) {
        if (request.stateHash !== stateHash) continue;
        if (request.status !== "pending" || request.expiresAt <= now || !consentIds.includes(request.id)) {
          return undefined;
        }
        request.status = "used";
        request.usedAt = now;
        return structuredClone(request);
      }
      return undefined;
    },
    async getRequest({ tenantId, id }) {
      const request = requests.get(keyOf(tenantId, id));
      return request && structuredClone(request);
    },
    async park(call) {
      for (const parked of calls.values()) {
        if (
          parked.tenantId === call.tenantId &&
          parked.idempotencyKey === call.idempotencyKey &&
          parked.status !== "expired"
        ) {
          return { created: false, call: structuredClone(parked) };
        }
      }
      const stored: ParkedCall = {
        ...structuredClone(call),
        status: "waiting",
        result: undefined,
        resumedAt: undefined,
      };
      calls.set(keyOf(call.tenantId, call.id), stored);
      return { created: true, call: structuredClone(stored) };
    },
    async getCall({ tenantId, id }) {
      const call = calls.get(keyOf(tenantId, id));
      return call && structuredClone(call);
    },
    async waiting({ tenantId, principalId, credentialRef }) {
      return [...calls.values()]
        .filter(
          (call) =>
            call.tenantId === tenantId &&
            call.requestedBy === principalId &&
            call.credentialRef === credentialRef &&
            call.status === "waiting",
        )
        .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
        .map((call) => structuredClone(call));
    },
    async settle({ tenantId, id, result, at }) {
      const call = calls.get(keyOf(tenantId, id));
      if (call?.status !== "waiting") return false;
      call.status = "resumed";
      call.result = structuredClone(result);
      call.resumedAt = at;
      return true;
    },
    async expire({ now }) {
      let count = 0;
      for (const call of calls.values()) {
        if (call.status === "waiting" && call.expiresAt <= now) {
          call.status = "expired";
          count++;
        }
      }
      for (const [key, request] of requests) {
        if (request.status === "used" || request.expiresAt <= now) {
          requests.delete(key);
          count++;
        }
      }
      return count;
    },
  };
}
