/**
 * @module toolreg — what a tool's author and its caller use: the declaration, the envelope and errors, the context a
 * tool sees, the registry, the seam and its policies. Runtime-neutral of HTTP, MCP and CLI. A host starts at
 * `toolreg/host` (`createToolreg`); whoever writes a store adapter finds the ports at `toolreg/stores`.
 */
export { CATEGORIES, type Category, isCategory } from "./declaration/categories.js";
export {
  type Cost,
  DEFAULT_LIMITS,
  defineTool,
  type GovernanceOverride,
  type Precondition,
  type Tool,
  type ToolDeclaration,
  type ToolLimits,
  type ToolOutput,
  type ToolProvenance,
} from "./declaration/define-tool.js";
export {
  APPROVALS,
  type Approval,
  changesData,
  type DerivedGovernance,
  deriveGovernance,
  EFFECTS,
  type Effect,
} from "./declaration/effect.js";
export type { AnswersCheck, HumanAsk, HumanReply, Unanswered } from "./declaration/human-ask.js";
export type { JsonSchemaObject, ValidationIssue } from "./declaration/json-schema-validator.js";
export { canonicalJson } from "./declaration/tool-hash.js";
export type { SchemaLike, ToolSchema } from "./declaration/tool-schema.js";
export { RegistryError } from "./errors/registry-error.js";
export { ToolDefinitionError } from "./errors/tool-definition-error.js";
export { ToolFailure } from "./errors/tool-failure.js";
export { ToolregError } from "./errors/toolreg-error.js";
export type {
  ApprovalPolicy,
  Authorizer,
  CeilingDecision,
  CeilingRequest,
  Ceilings,
  OutputGuardrail,
  PolicyDecision,
  Toolsets,
} from "./policy/ports.js";
export { defaultApprovalPolicy, scopeAuthorizer } from "./policy/ports.js";
export { type RateLimitRule, SlidingWindowCeilings } from "./policy/sliding-window-ceilings.js";
export { type CeilingRule, TokenBucketCeilings } from "./policy/token-bucket-ceilings.js";
// A host lists and decides approvals; the rest of the store ports is at toolreg/stores.
export { APPROVAL_STATUSES, type ApprovalRecord, type ApprovalStatus } from "./ports/stores.js";
export { type AnyTool, type RegistryView, ToolRegistry, type ToolUpdateEvent } from "./registry/registry.js";
export type { ToolModule } from "./registry/tool-module.js";
export type { AuditFailureMode } from "./seam/audit-guard.js";
export {
  type AssistantMode,
  type CredentialResolver,
  createExecutionContext,
  type ExecutionContext,
  type ExecutionContextInit,
  type Logger,
  type ToolContext,
} from "./seam/context.js";
export {
  approvalIdOf,
  type Envelope,
  EnvelopeSchema,
  ERROR_CODES,
  type ErrorCode,
  type ErrorEnvelope,
  envelopeText,
  failure,
  type OkEnvelope,
  type Provenance,
  type ToolError,
} from "./seam/envelope.js";
export {
  type CallOptions,
  createSeam,
  type DecisionRequest,
  type DecisionResult,
  Seam,
  type SeamOptions,
} from "./seam/seam.js";
export { encloseUntrusted } from "./seam/untrusted-fence.js";
