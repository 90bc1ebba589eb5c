/**
 * @module toolreg/stores — the store ports, for whoever writes a store adapter: approvals, idempotency records,
 * audit, API keys and sessions, credentials, consents, MCP pins, artifacts, principal memory, knowledge bases, run todo lists, toolkits' own records and events. Users pick an adapter (`toolreg/stores/memory`, `/sqlite`) instead.
 */
export type * from "./artifact-store.js";
export type * from "./attachment-rules.js";
export { attachmentCaps, badAttachmentName, newAttachment, refusedUpfront } from "./attachment-rules.js";
export type * from "./attachment-store.js";
export { ATTACHMENT_LIMITS } from "./attachment-store.js";
export type * from "./auth-store.js";
export type * from "./consent-store.js";
export { PARKED_CALL_STATUSES } from "./consent-store.js";
export type * from "./credential-store.js";
export { CREDENTIAL_KINDS } from "./credential-store.js";
export type * from "./deployment-stores.js";
export type * from "./event-bus.js";
export type * from "./knowledge-base.js";
export { KNOWLEDGE_LIMITS, SOURCE_KINDS } from "./knowledge-base.js";
export type * from "./memory-store.js";
export { MEMORY_LIMITS } from "./memory-store.js";
export type * from "./pin-store.js";
export type * from "./schedule-store.js";
export { SCHEDULE_LIMITS, SCHEDULE_STATUSES } from "./schedule-store.js";
export { parseSkillMd } from "./skill-md.js";
export type * from "./skill-store.js";
export { checkedSkillDraft, SKILL_LIMITS, skillFull, skillNameProblem, skillSource } from "./skill-store.js";
export type * from "./stores.js";
export { APPROVAL_STATUSES, evidenceOf } from "./stores.js";
export type * from "./todo-store.js";
export {
  checkedTodoItems,
  staleRevision,
  TODO_LIMITS,
  TODO_RETENTION_MS,
  TODO_STATUSES,
} from "./todo-store.js";
export type * from "./toolkit-record-store.js";
export {
  checkedRecordData,
  parseRecordCursor,
  recordCursor,
  recordPage,
  recordPageSize,
  TOOLKIT_RECORD_LIMITS,
  TOOLKIT_RECORD_RETENTION_MS,
} from "./toolkit-record-store.js";
