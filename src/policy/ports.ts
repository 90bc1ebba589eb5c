/** @module The policy ports the seam consults. Each is small; the host supplies what it needs. */
import type { Tool } from "../declaration/define-tool.js";
import type { Effect } from "../declaration/effect.js";
import type { ExecutionContext } from "../seam/context.js";
import type { Envelope } from "../seam/envelope.js";

// biome-ignore lint/suspicious/noExplicitAny: policies see tools of every input/output type.
type AnyTool = Tool<any, any>;

/**
 * May this caller see and call this tool? Synchronous, because discovery asks it of every tool.
 * Consulted for discovery and again at call time and at resume.
 */
export interface Authorizer {
  authorize(context: ExecutionContext, tool: AnyTool): boolean;
}

/** Which categories a tenant has switched on; `undefined` means all of them. */
export interface Toolsets {
  categoriesFor(tenantId: string): ReadonlySet<string> | undefined;
}

export type CeilingDecision =
  | { allowed: true }
  /** Over `limit` (the rule as a person reads it). */
  | { allowed: false; retryAfterMs: number; limit: string }
  /** Not counted, because the store that counts could not be asked; `unavailable` says why. */
  | { allowed: false; retryAfterMs: number; unavailable: string };

/** One call to count: who makes it, on which tool, with what effect, at what time. */
export interface CeilingRequest {
  tenantId: string;
  principalId: string;
  toolName: string;
  /** A store that cannot count may still let reads through, never changes. */
  effect: Effect;
  now: number;
}

/**
 * Rate limits and quotas per tenant, principal and tool; enforced beside authorization. Asynchronous, so
 * counters shared by several instances (Redis) fit behind it; in-process adapters answer at once.
 */
export interface Ceilings {
  take(request: CeilingRequest): Promise<CeilingDecision>;
}

export type PolicyDecision = { decision: "allow" | "ask" | "deny"; reason: string };

/** Decides calls of tools whose approval is `policy`. */
export interface ApprovalPolicy {
  decide(request: {
    context: ExecutionContext;
    tool: AnyTool;
    input: unknown;
  }): PolicyDecision | Promise<PolicyDecision>;
}

/** Runs over a tool's result before the model sees it; a refusal replaces the result. */
export interface OutputGuardrail {
  readonly name: string;
  check(request: {
    context: ExecutionContext;
    tool: AnyTool;
    input: unknown;
    envelope: Envelope;
  }):
    | { allowed: true }
    | { allowed: false; reason: string }
    | Promise<{ allowed: true } | { allowed: false; reason: string }>;
}

/** The default authorizer: a tool is usable when the caller holds every scope it declares. */
export const scopeAuthorizer: Authorizer = {
  authorize(context, tool) {
    return tool.scopes.every((scope) => context.scopes.includes(scope));
  },
};

/** The default policy for `policy` tools: reads run, anything that changes data asks a human. */
export const defaultApprovalPolicy: ApprovalPolicy = {
  decide({ tool }) {
    return tool.effect === "read"
      ? { decision: "allow", reason: "default policy: reads run" }
      : { decision: "ask", reason: "default policy: changes ask a human" };
  },
};
