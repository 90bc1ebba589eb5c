/** @module The seam's options, and the same resolved with defaults: what every part of the seam reads. */
import { type Tracer, trace } from "@opentelemetry/api";
import {
  type ApprovalPolicy,
  type Authorizer,
  type Ceilings,
  defaultApprovalPolicy,
  type OutputGuardrail,
  scopeAuthorizer,
  type Toolsets,
} from "../policy/ports.js";
import type { RegistryView } from "../registry/registry.js";
import type { Stores } from "../stores/types.js";
import type { OutputStore } from "./output-store.js";

export interface SeamOptions {
  registry: RegistryView;
  stores: Stores;
  authorizer?: Authorizer;
  toolsets?: Toolsets;
  ceilings?: Ceilings;
  approvalPolicy?: ApprovalPolicy;
  guardrails?: readonly OutputGuardrail[];
  /** Keeps an output over its tool's cap whole, for read_tool_output; without it the cut is only reported. */
  outputs?: OutputStore;
  /** Epoch milliseconds; injectable so expiry and leases can be tested without waiting. */
  clock?: () => number;
  /** How long a parked call may wait for a decision and then be run. Default 7 days. */
  approvalTtlMs?: number;
  /** How long a completed idempotency record replays. Default 24 hours. */
  retentionMs?: number;
  /** Lease on a claim beyond the tool's own timeout, before another caller may take it over. Default 30 s. */
  leaseGraceMs?: number;
  /** Poll interval while waiting on a call in flight in another process. Default 25 ms. */
  waitPollMs?: number;
}

export interface CallOptions {
  /** A call whose key is in flight: answer `in_progress` at once (default) or wait for its result. */
  onInProgress?: "fail" | "wait";
}

export interface SeamSettings {
  readonly registry: RegistryView;
  readonly stores: Stores;
  readonly authorizer: Authorizer;
  readonly toolsets: Toolsets | undefined;
  readonly ceilings: Ceilings | undefined;
  readonly policy: ApprovalPolicy;
  readonly guardrails: readonly OutputGuardrail[];
  readonly outputs: OutputStore | undefined;
  readonly now: () => number;
  /** No clock was injected: `now()` is `Date.now()`, so one reading can serve both (some 30 ns each here). */
  readonly realClock: boolean;
  readonly approvalTtlMs: number;
  readonly retentionMs: number;
  readonly leaseGraceMs: number;
  readonly waitPollMs: number;
  readonly tracer: Tracer;
}

const DAY = 24 * 60 * 60 * 1000;

export function resolveSettings(options: SeamOptions): SeamSettings {
  return {
    registry: options.registry,
    stores: options.stores,
    authorizer: options.authorizer ?? scopeAuthorizer,
    toolsets: options.toolsets,
    ceilings: options.ceilings,
    policy: options.approvalPolicy ?? defaultApprovalPolicy,
    guardrails: options.guardrails ?? [],
    outputs: options.outputs,
    now: options.clock ?? Date.now,
    realClock: options.clock === undefined,
    approvalTtlMs: options.approvalTtlMs ?? 7 * DAY,
    retentionMs: options.retentionMs ?? DAY,
    leaseGraceMs: options.leaseGraceMs ?? 30_000,
    waitPollMs: options.waitPollMs ?? 25,
    tracer: trace.getTracer("toolreg"),
  };
}
