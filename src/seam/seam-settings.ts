/** @module The seam's options, and the same resolved with defaults: what every part of the seam reads. */

import { hostname } from "node:os";
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
import type { AuditEvent, Stores } from "../ports/stores.js";
import type { RegistryView } from "../registry/registry.js";
import { type AuditFailureMode, AuditGuard } from "./audit-guard.js";
import type { ConsentOptions } from "./consent/consent-options.js";
import { type Logger, silentLogger } from "./context.js";
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
  /**
   * How long past its holder's last heartbeat a claim is still taken as running, before it is presumed
   * lost (its outcome unknown, or re-run where the provider deduplicates). Default 30 s.
   */
  leaseGraceMs?: number;
  /** How often a running call's claim is renewed. Default 5 s. */
  heartbeatMs?: number;
  /**
   * Poll interval while waiting on a call in flight in another process, for a store that cannot say when
   * it settles (`IdempotencyStore.settled`; PostgreSQL can). Default 25 ms.
   */
  waitPollMs?: number;
  /**
   * While audit events cannot be written: refuse calls that change data (`refuse`, the default) or run
   * them and log an alert (`alert`). Reads run either way.
   */
  onAuditFailure?: AuditFailureMode;
  /**
   * Told of every audit event the seam makes, whether written through the audit store or by the store
   * that wrote it with the completion or parking it belongs to: how a host streams approvals as they
   * happen. It must not throw; what it throws is logged.
   */
  onAuditEvent?: (event: AuditEvent) => void;
  /** For what belongs to no one call: housekeeping, shutdown, the audit trail failing. Silent by default. */
  logger?: Logger;
  /** Names this process in the claims it holds, as evidence when one is lost. Default `host:pid`. */
  holder?: string;
  /**
   * Stored credentials and the user's consent: a call whose toolkit credential is not usable is parked with
   * an authorization URL (or, for a toolkit that cannot ask, refused naming what to configure).
   */
  consent?: ConsentOptions;
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
  readonly heartbeatMs: number;
  readonly waitPollMs: number;
  readonly tracer: Tracer;
  /** Every audit write goes through it, so a failing trail keeps its events and can refuse writes. */
  readonly audit: AuditGuard;
  readonly logger: Logger;
  readonly holder: string;
  readonly consent: ConsentOptions | undefined;
}

const DAY = 24 * 60 * 60 * 1000;

export function resolveSettings(options: SeamOptions): SeamSettings {
  const logger = options.logger ?? silentLogger;
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
    heartbeatMs: options.heartbeatMs ?? 5_000,
    waitPollMs: options.waitPollMs ?? 25,
    tracer: trace.getTracer("toolreg"),
    audit: new AuditGuard(
      options.stores.audit,
      options.onAuditFailure ?? "refuse",
      options.logger,
      options.onAuditEvent,
    ),
    logger,
    holder: options.holder ?? `${hostname()}:${process.pid}`,
    consent: options.consent,
  };
}
