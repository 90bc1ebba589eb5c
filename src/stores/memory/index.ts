/** @module toolreg/stores/memory — the reference store adapters, kept in process memory. */
import type { Stores } from "../../ports/stores.js";
import { createMemoryApprovalStore } from "./approvals.js";
import { createMemoryAttachmentStore } from "./attachments.js";
import { createMemoryAuditStore } from "./audit.js";
import { createMemoryConsentStore } from "./consents.js";
import { createMemoryCredentialStore } from "./credentials.js";
import { createMemoryIdempotencyStore } from "./idempotency.js";
import { createMemoryKnowledgeBase } from "./knowledge.js";
import { createMemoryMemoryStore } from "./memories.js";
import { createMemoryScheduleStore } from "./schedules.js";
import { createMemorySkillStore } from "./skills.js";
import { createMemoryTodoStore } from "./todos.js";
import { createMemoryToolkitRecordStore } from "./toolkit-records.js";

export {
  createMemoryApprovalStore,
  createMemoryAttachmentStore,
  createMemoryAuditStore,
  createMemoryConsentStore,
  createMemoryCredentialStore,
  createMemoryIdempotencyStore,
  createMemoryKnowledgeBase,
  createMemoryMemoryStore,
  createMemoryScheduleStore,
  createMemorySkillStore,
  createMemoryTodoStore,
  createMemoryToolkitRecordStore,
};

/** All three stores in memory; completions and parkings record their audit events as they are made. */
export function createMemoryStores(): Stores {
  const audit = createMemoryAuditStore();
  return {
    approvals: createMemoryApprovalStore({ audit }),
    idempotency: createMemoryIdempotencyStore({ audit }),
    audit,
  };
}
