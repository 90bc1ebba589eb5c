/** @module toolreg/stores/memory — the reference store adapters, kept in process memory. */
import type { Stores } from "../../ports/stores.js";
import { createMemoryApprovalStore } from "./approvals.js";
import { createMemoryAuditStore } from "./audit.js";
import { createMemoryConsentStore } from "./consents.js";
import { createMemoryCredentialStore } from "./credentials.js";
import { createMemoryIdempotencyStore } from "./idempotency.js";

export {
  createMemoryApprovalStore,
  createMemoryAuditStore,
  createMemoryConsentStore,
  createMemoryCredentialStore,
  createMemoryIdempotencyStore,
};

/** All three stores in memory. */
export function createMemoryStores(): Stores {
  return {
    approvals: createMemoryApprovalStore(),
    idempotency: createMemoryIdempotencyStore(),
    audit: createMemoryAuditStore(),
  };
}
