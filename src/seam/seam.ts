/** @module The seam: the one path every tool call takes, in the ten steps of the design. */
import { randomUUID } from "node:crypto";
import { SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import { type Approval, changesData } from "../declaration/effect.js";
import { describeIssues, type ValidationResult } from "../declaration/tool-schema.js";
import {
  type ApprovalPolicy,
  type Authorizer,
  type Ceilings,
  defaultApprovalPolicy,
  type OutputGuardrail,
  scopeAuthorizer,
  type Toolsets,
} from "../policy/ports.js";
import type { AnyTool, RegistryView } from "../registry/registry.js";
import type { ApprovalRecord, AuditEvent, DecideOutcome, Stores } from "../stores/types.js";
import { type ExecutionContext, type Logger, silentLogger } from "./context.js";
import { describeCall } from "./describe-call.js";
import { type Envelope, failure } from "./envelope.js";
import { newEventId } from "./event-id.js";
import { fingerprintOf, idempotencyKeyFor, storableInput } from "./idempotency-key.js";
import { nearestNames } from "./nearest-names.js";
import { perform } from "./perform.js";
import { describeThrown } from "./to-envelope.js";

export interface SeamOptions {
  registry: RegistryView;
  stores: Stores;
  authorizer?: Authorizer;
  toolsets?: Toolsets;
  ceilings?: Ceilings;
  approvalPolicy?: ApprovalPolicy;
  guardrails?: readonly OutputGuardrail[];
  /** Epoch milliseconds; injectable so expiry and leases can be tested without waiting. */
  clock?: () => number;
  /** How long a parked call may wait for a decision. Default 7 days. */
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

export type DecisionResult =
  | { ok: true; approval: ApprovalRecord }
  | {
      ok: false;
      reason: "not_found" | "already_decided" | "expired";
      message: string;
      approval?: ApprovalRecord;
    };

/** What the audit row of one call says beyond the outcome, filled in as the steps run. */
interface CallTrace {
  tool: AnyTool | undefined;
  approval: string | undefined;
  approvalId: string | undefined;
  idempotencyKey: string | undefined;
  replayed: boolean;
}

type Validated = { ok: true; value: unknown } | { ok: false; envelope: Envelope };

function toValidated(tool: AnyTool, result: ValidationResult<unknown>): Validated {
  if (result.ok) return result;
  return {
    ok: false,
    envelope: failure("invalid_input", `invalid input for ${tool.name}: ${describeIssues(result.issues)}`, {
      details: { issues: result.issues },
    }),
  };
}

const DAY = 24 * 60 * 60 * 1000;

/** A name from a model may be anything; never let printing it throw. */
function printableName(name: unknown): string {
  return typeof name === "string" ? name : `<${typeof name}>`;
}

export class Seam {
  readonly #registry: RegistryView;
  readonly #stores: Stores;
  readonly #authorizer: Authorizer;
  readonly #toolsets: Toolsets | undefined;
  readonly #ceilings: Ceilings | undefined;
  readonly #policy: ApprovalPolicy;
  readonly #guardrails: readonly OutputGuardrail[];
  readonly #now: () => number;
  readonly #approvalTtlMs: number;
  readonly #retentionMs: number;
  readonly #leaseGraceMs: number;
  readonly #waitPollMs: number;
  readonly #tracer: Tracer = trace.getTracer("toolreg");
  /** Calls this process is running, by tenant and key, so local waiters need not poll the store. */
  readonly #inflight = new Map<string, Promise<Envelope>>();

  constructor(options: SeamOptions) {
    this.#registry = options.registry;
    this.#stores = options.stores;
    this.#authorizer = options.authorizer ?? scopeAuthorizer;
    this.#toolsets = options.toolsets;
    this.#ceilings = options.ceilings;
    this.#policy = options.approvalPolicy ?? defaultApprovalPolicy;
    this.#guardrails = options.guardrails ?? [];
    this.#now = options.clock ?? Date.now;
    this.#approvalTtlMs = options.approvalTtlMs ?? 7 * DAY;
    this.#retentionMs = options.retentionMs ?? DAY;
    this.#leaseGraceMs = options.leaseGraceMs ?? 30_000;
    this.#waitPollMs = options.waitPollMs ?? 25;
  }

  /** The tools this caller may see and call: the same filter discovery and the call path use. */
  visibleTools(context: ExecutionContext): AnyTool[] {
    if (context.mode === "disabled") return [];
    return this.#registry.list().filter((tool) => this.#isVisible(context, tool));
  }

  /** Calls a tool by name. Never throws: every outcome is an envelope. */
  async call(
    context: ExecutionContext,
    name: string,
    input: unknown,
    options: CallOptions = {},
  ): Promise<Envelope> {
    const startedAt = Date.now();
    const trace: CallTrace = {
      tool: undefined,
      approval: undefined,
      approvalId: undefined,
      idempotencyKey: undefined,
      replayed: false,
    };
    const printable = printableName(name);
    let envelope: Envelope;
    try {
      envelope = await this.#call(context, name, input, options, trace);
    } catch (error) {
      envelope = this.#crashed(context, printable, error);
    }
    const recorded = this.#record("tool-call", context, printable, trace, envelope, startedAt);
    if (recorded) await recorded;
    return envelope;
  }

  /** Runs an approved call, exactly once however often it is resumed; re-checks authorization first. */
  async resume(context: ExecutionContext, approvalId: string, options: CallOptions = {}): Promise<Envelope> {
    const startedAt = Date.now();
    const trace: CallTrace = {
      tool: undefined,
      approval: "approved",
      approvalId,
      idempotencyKey: undefined,
      replayed: false,
    };
    let envelope: Envelope;
    try {
      envelope = await this.#resume(context, approvalId, options, trace);
    } catch (error) {
      envelope = this.#crashed(context, "", error);
    }
    const recorded = this.#record("approval-resume", context, "", trace, envelope, startedAt);
    if (recorded) await recorded;
    return envelope;
  }

  async approve(request: {
    tenantId: string;
    approvalId: string;
    by: string;
    note?: string;
  }): Promise<DecisionResult> {
    return this.#decide(request, "approved");
  }

  async deny(request: {
    tenantId: string;
    approvalId: string;
    by: string;
    note?: string;
  }): Promise<DecisionResult> {
    return this.#decide(request, "denied");
  }

  /**
   * Housekeeping the host runs now and then (the CLI runs it as it opens its state): deletes completed
   * idempotency records past their retention and marks approvals past their expiry as expired.
   */
  async sweep(): Promise<{ purged: number; expired: number }> {
    const now = this.#now();
    const purged = await this.#stores.idempotency.purge({ now });
    const expired = await this.#stores.approvals.expire({ now });
    return { purged, expired };
  }

  // ---- the ten steps ---------------------------------------------------------------------------

  async #call(
    context: ExecutionContext,
    name: string,
    rawInput: unknown,
    options: CallOptions,
    trace: CallTrace,
  ): Promise<Envelope> {
    if (context.mode === "disabled") {
      return failure("not_authorized", "this assistant is disabled and can call no tool");
    }
    // 1–2. Resolve among the tools this caller can see: toolset, then authorization.
    const tool = typeof name === "string" ? this.#registry.get(name) : undefined;
    if (!tool || !this.#isVisible(context, tool)) return this.#unknownTool(context, printableName(name));
    trace.tool = tool;

    // 3. Validate: all input is hostile.
    let input = this.#validate(tool, rawInput === undefined ? {} : rawInput);
    if (input instanceof Promise) input = await input;
    if (!input.ok) return input.envelope;

    // 4. Preconditions.
    if (tool.requires.length > 0) {
      const unmet = await this.#unmetPrecondition(tool, context);
      if (unmet) return unmet;
    }

    // 5. Ceilings.
    if (this.#ceilings) {
      const ceiling = this.#ceilings.take({
        tenantId: context.tenantId,
        principalId: context.principalId,
        toolName: tool.name,
        now: this.#now(),
      });
      if (!ceiling.allowed) {
        return failure("rate_limited", `${tool.name} is over its limit (${ceiling.limit}); wait and retry`, {
          retryAfterMs: ceiling.retryAfterMs,
        });
      }
    }

    // 6. Approval.
    const approval: Approval =
      context.mode === "gated" && changesData(tool.effect) ? "always" : tool.approval;
    trace.approval = approval;
    if (approval === "policy") {
      const decision = await this.#policy.decide({ context, tool, input: input.value });
      trace.approval = `policy:${decision.decision}`;
      if (decision.decision === "deny")
        return failure("approval_denied", `policy refused ${tool.name}: ${decision.reason}`);
      if (decision.decision === "ask") return this.#park(context, tool, rawInput ?? {}, input.value, trace);
    } else if (approval === "always") {
      return this.#park(context, tool, rawInput ?? {}, input.value, trace);
    }

    // 7–9. Idempotency, run, envelope.
    if (!tool.idempotencyKey) return await this.#perform(context, tool, input.value, undefined, undefined);
    return await this.#execute(
      context,
      tool,
      input.value,
      idempotencyKeyFor(context),
      undefined,
      options,
      trace,
    );
  }

  async #resume(
    context: ExecutionContext,
    approvalId: string,
    options: CallOptions,
    trace: CallTrace,
  ): Promise<Envelope> {
    const { tenantId } = context;
    const record = await this.#stores.approvals.get({ tenantId, id: approvalId });
    if (!record) return failure("not_authorized", `there is no approval "${approvalId}" for this tenant`);
    trace.idempotencyKey = record.idempotencyKey;
    if (record.requestedBy !== context.principalId) {
      return failure("not_authorized", `approval ${approvalId} was requested by another principal`);
    }
    switch (record.status) {
      case "pending":
        return record.expiresAt <= this.#now()
          ? failure("approval_denied", `approval ${approvalId} expired before anyone decided it`)
          : failure("approval_required", `approval ${approvalId} is still waiting for a decision`, {
              details: { approvalId },
            });
      case "denied":
        return failure(
          "approval_denied",
          `approval ${approvalId} was denied by ${record.decidedBy}${record.note ? `: ${record.note}` : ""}`,
        );
      case "expired":
        return failure("approval_denied", `approval ${approvalId} expired before anyone decided it`);
      case "executed":
      case "refused":
        trace.replayed = true;
        return (
          record.result ?? failure("internal", `approval ${approvalId} finished without a recorded result`)
        );
      case "approved":
        break;
    }
    if (record.expiresAt <= this.#now()) {
      // An approval is good for its lifetime, not forever: the world it was judged in has moved on.
      return this.#refuse(
        context,
        approvalId,
        failure("approval_denied", `approval ${approvalId} expired before it ran`),
      );
    }

    const tool = this.#registry.get(record.toolName);
    trace.tool = tool;
    if (context.mode === "disabled" || !tool || !this.#isVisible(context, tool)) {
      return this.#refuse(
        context,
        approvalId,
        failure(
          "not_authorized",
          `${record.toolName} is no longer available to this caller; approval ${approvalId} was not run`,
        ),
      );
    }
    if (tool.hash !== record.definitionHash) {
      // The tool changed since a human read its description: ask again rather than run something unseen.
      // The refusal is committed first and names the new approval, so concurrent resumes create one, not several.
      const freshId = randomUUID();
      const refusal = failure(
        "approval_required",
        `${tool.name} changed since approval ${approvalId} was asked; it needs a new approval`,
        { details: { approvalId: freshId, supersedes: approvalId } },
      );
      const settled = await this.#refuse(context, approvalId, refusal);
      if (settled === refusal)
        await this.#createApproval(context, tool, record.input, record.idempotencyKey, freshId);
      return settled;
    }
    const input = await this.#validate(tool, record.input);
    if (!input.ok) return this.#refuse(context, approvalId, input.envelope);
    const unmet = (await this.#unmetPrecondition(tool, context)) ?? this.#unstartable(context, tool);
    if (unmet) return unmet;

    const envelope = await this.#execute(
      context,
      tool,
      input.value,
      record.idempotencyKey,
      approvalId,
      options,
      trace,
    );
    if (envelope.ok || envelope.error.code !== "in_progress") {
      await this.#stores.approvals.finish({
        tenantId,
        id: approvalId,
        status: "executed",
        result: envelope,
        at: this.#now(),
      });
    }
    return envelope;
  }

  /** Approved → refused, once; a caller that lost the race gets the refusal that won. */
  async #refuse(context: ExecutionContext, approvalId: string, envelope: Envelope): Promise<Envelope> {
    const { tenantId } = context;
    const won = await this.#stores.approvals.finish({
      tenantId,
      id: approvalId,
      status: "refused",
      result: envelope,
      at: this.#now(),
    });
    if (won) return envelope;
    const settled = await this.#stores.approvals.get({ tenantId, id: approvalId });
    return settled?.result ?? envelope;
  }

  /** A call that cannot start now is refused before it claims anything, so a retry is still possible. */
  #unstartable(context: ExecutionContext, tool: AnyTool): Envelope | undefined {
    if (context.signal?.aborted) {
      return failure("timeout", `the host aborted ${tool.name} before it started`, {
        details: { aborted: true },
      });
    }
    if (context.deadline !== undefined && context.deadline <= this.#now()) {
      return failure("timeout", `the deadline passed before ${tool.name} could start`);
    }
    return undefined;
  }

  async #execute(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    key: string | undefined,
    approvalId: string | undefined,
    options: CallOptions,
    trace: CallTrace,
  ): Promise<Envelope> {
    if (key === undefined) return await this.#perform(context, tool, input, undefined, approvalId);
    trace.idempotencyKey = key;
    const unstartable = this.#unstartable(context, tool);
    if (unstartable) return unstartable;
    const stored = storableInput(input);
    if (!stored.ok) return failure("invalid_input", `invalid input for ${tool.name}: ${stored.reason}`);
    const fingerprint = fingerprintOf(tool.name, stored.json);
    const waitUntil =
      this.#now() +
      Math.min(
        tool.limits.timeoutMs + this.#leaseGraceMs,
        (context.deadline ?? Number.POSITIVE_INFINITY) - this.#now(),
      );
    for (;;) {
      const claimId = newEventId();
      const now = this.#now();
      const claim = await this.#stores.idempotency.claim({
        tenantId: context.tenantId,
        key,
        fingerprint,
        toolName: tool.name,
        claimId,
        reclaimable: tool.effect !== "destructive",
        now,
        leaseMs: tool.limits.timeoutMs + this.#leaseGraceMs,
        retentionMs: this.#retentionMs,
      });
      switch (claim.kind) {
        case "claimed":
          return await this.#performClaimed(context, tool, input, key, claimId, approvalId);
        case "completed":
          trace.replayed = true;
          return claim.envelope;
        case "conflict":
          return failure(
            "idempotency_conflict",
            `idempotency key "${key}" was already used for ${tool.name} with other arguments; nothing was run. Use a new key for a different call`,
          );
        case "unknown":
          return failure(
            "idempotency_conflict",
            `an earlier ${tool.name} call with key "${key}" was interrupted and its outcome is unknown; it will not be re-run. Check the target system, then use a new key`,
            { details: { status: "unknown", since: claim.since } },
          );
        case "in_progress": {
          const local = this.#inflight.get(`${context.tenantId}\u0000${key}`);
          if (options.onInProgress !== "wait" || this.#now() >= waitUntil) {
            return failure(
              "in_progress",
              `a ${tool.name} call with key "${key}" is still running; retry shortly`,
              {
                retryAfterMs: this.#waitPollMs * 4,
              },
            );
          }
          if (local) {
            await local;
          } else {
            await new Promise((resolve) => setTimeout(resolve, this.#waitPollMs));
          }
        }
      }
    }
  }

  async #performClaimed(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    key: string,
    claimId: string,
    approvalId: string | undefined,
  ): Promise<Envelope> {
    const inflightKey = `${context.tenantId}\u0000${key}`;
    const running = (async () => {
      let envelope: Envelope;
      try {
        envelope = await this.#perform(context, tool, input, key, approvalId);
      } catch (error) {
        // Whatever happens after the claim, a result is stored: a claim left in flight would let an
        // external write run again once its lease ran out.
        envelope = failure("internal", `${tool.name} failed after it was claimed: ${describeThrown(error)}`);
      }
      const stored = await this.#stores.idempotency.complete({
        tenantId: context.tenantId,
        key,
        claimId,
        envelope,
        now: this.#now(),
        retentionMs: this.#retentionMs,
      });
      if (!stored) context.logger.warn({ tool: tool.name, key }, "idempotency lease lost before completion");
      return envelope;
    })();
    this.#inflight.set(inflightKey, running);
    try {
      return await running;
    } finally {
      this.#inflight.delete(inflightKey);
    }
  }

  /** Steps 8–9: run, envelope, output guardrails. No extra promise when there are no guardrails. */
  #perform(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    key: string | undefined,
    approvalId: string | undefined,
  ): Envelope | Promise<Envelope> {
    const performed = perform({ tool, context, input, idempotencyKey: key, approvalId, now: this.#now() });
    return this.#guardrails.length === 0 ? performed : this.#guard(context, tool, input, performed);
  }

  async #guard(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    performed: Envelope | Promise<Envelope>,
  ): Promise<Envelope> {
    const envelope = await performed;
    for (const guardrail of this.#guardrails) {
      const verdict = await guardrail.check({ context, tool, input, envelope });
      if (!verdict.allowed) {
        return failure(
          "output_invalid",
          `guardrail ${guardrail.name} withheld the result of ${tool.name}: ${verdict.reason}`,
        );
      }
    }
    return envelope;
  }

  /**
   * Parks a call for a human. The raw arguments are stored, not the parsed ones: resume validates them
   * again, and a schema that transforms its input must see what the model sent, not its own output.
   */
  async #park(
    context: ExecutionContext,
    tool: AnyTool,
    rawInput: unknown,
    input: unknown,
    trace: CallTrace,
  ): Promise<Envelope> {
    const raw = storableInput(rawInput);
    const parsed = storableInput(input);
    if (!raw.ok || !parsed.ok) {
      return failure(
        "invalid_input",
        `invalid input for ${tool.name}: ${raw.ok ? (parsed as { reason: string }).reason : raw.reason}`,
      );
    }
    const key = tool.idempotencyKey ? idempotencyKeyFor(context) : undefined;
    if (key) {
      // A retry of a call that already ran (approved and resumed) replays instead of asking again.
      const previous = await this.#stores.idempotency.get({ tenantId: context.tenantId, key });
      if (
        previous?.status === "completed" &&
        previous.envelope &&
        previous.fingerprint === fingerprintOf(tool.name, parsed.json)
      ) {
        trace.replayed = true;
        return previous.envelope;
      }
    }
    const record = await this.#createApproval(context, tool, rawInput, key);
    trace.approvalId = record.id;
    trace.idempotencyKey = record.idempotencyKey;
    return failure(
      "approval_required",
      `${tool.name} needs a human's approval and has not run. It is parked as approval ${record.id}; tell the user, and do not call it again`,
      { details: { approvalId: record.id, expiresAt: new Date(record.expiresAt).toISOString() } },
    );
  }

  async #createApproval(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    key: string | undefined,
    id: string = randomUUID(),
  ): Promise<ApprovalRecord> {
    const now = this.#now();
    const record = await this.#stores.approvals.create({
      tenantId: context.tenantId,
      id,
      toolName: tool.name,
      toolVersion: tool.version,
      effect: tool.effect,
      definitionHash: tool.hash,
      input,
      description: describeCall(tool, input),
      requestedBy: context.principalId,
      runId: context.runId,
      toolCallId: context.toolCallId,
      // Tools without a key of their own run under the approval's, which is what makes resume exactly-once.
      idempotencyKey: key ?? `approval:${id}`,
      createdAt: now,
      expiresAt: now + this.#approvalTtlMs,
    });
    await this.#audit(
      this.#callEvent("approval-request", context, tool, tool.name, {
        outcome: "approval_required",
        approvalId: id,
        idempotencyKey: record.idempotencyKey,
        message: record.description,
      }),
      context.logger,
    );
    return record;
  }

  async #decide(
    request: { tenantId: string; approvalId: string; by: string; note?: string },
    decision: "approved" | "denied",
  ): Promise<DecisionResult> {
    const decided: DecideOutcome = await this.#stores.approvals.decide({
      tenantId: request.tenantId,
      id: request.approvalId,
      decision,
      by: request.by,
      at: this.#now(),
      ...(request.note === undefined ? {} : { note: request.note }),
    });
    if (!decided.ok) {
      const messages = {
        not_found: `there is no approval "${request.approvalId}" for this tenant`,
        already_decided: `approval ${request.approvalId} was already decided (${decided.record?.status})`,
        expired: `approval ${request.approvalId} expired before it was decided`,
      };
      const result: DecisionResult = { ok: false, reason: decided.reason, message: messages[decided.reason] };
      if (decided.record) result.approval = decided.record;
      return result;
    }
    const record = decided.record;
    await this.#audit({
      tenantId: request.tenantId,
      id: newEventId(),
      at: this.#now(),
      kind: "approval-decision",
      actor: request.by,
      runId: record.runId,
      toolCallId: record.toolCallId,
      tool: record.toolName,
      toolVersion: record.toolVersion,
      effect: record.effect,
      outcome: decision,
      durationMs: undefined,
      approvalId: record.id,
      idempotencyKey: record.idempotencyKey,
      approval: "always",
      message: request.note,
    });
    return { ok: true, approval: record };
  }

  // ---- helpers ----------------------------------------------------------------------------------

  #isVisible(context: ExecutionContext, tool: AnyTool): boolean {
    const categories = this.#toolsets?.categoriesFor(context.tenantId);
    if (categories && !categories.has(tool.category)) return false;
    return this.#authorizer.authorize(context, tool);
  }

  #unknownTool(context: ExecutionContext, name: string): Envelope {
    const allowed = this.visibleTools(context).map((tool) => tool.name);
    const nearest = nearestNames(name, allowed);
    const hint = nearest.length > 0 ? ` Did you mean ${nearest.join(", ")}?` : "";
    return failure("unknown_tool", `no tool named "${name.slice(0, 100)}" is available to you.${hint}`, {
      details: { nearest },
    });
  }

  /** Synchronous for synchronous schemas, which is nearly all of them. */
  #validate(tool: AnyTool, raw: unknown): Validated | Promise<Validated> {
    const result = tool.input.validate(raw);
    return result instanceof Promise
      ? result.then((settled) => toValidated(tool, settled))
      : toValidated(tool, result);
  }

  async #unmetPrecondition(tool: AnyTool, context: ExecutionContext): Promise<Envelope | undefined> {
    for (const precondition of tool.requires) {
      let met: boolean;
      try {
        met = await precondition.check(context);
      } catch {
        met = false;
      }
      if (!met) {
        return failure(
          "precondition_failed",
          `${tool.name} declines: it requires ${precondition.name}, which is not in place`,
          {
            details: { requires: precondition.name },
          },
        );
      }
    }
    return undefined;
  }

  #crashed(context: ExecutionContext, name: string, error: unknown): Envelope {
    context.logger.error({ err: error, tool: name }, "seam step failed");
    return failure(
      "internal",
      `toolreg failed while handling ${name || "the call"}: ${describeThrown(error)}`,
    );
  }

  /**
   * Step 10: one span and one audit event per call. The span is made whole at the end, with the call's
   * start time, so nothing is held open across the call and no context propagation is needed.
   */
  #record(
    kind: "tool-call" | "approval-resume",
    context: ExecutionContext,
    name: string,
    trace: CallTrace,
    envelope: Envelope,
    startedAt: number,
  ): void | Promise<void> {
    const tool = trace.tool;
    const outcome = trace.replayed ? "replayed" : envelope.ok ? "ok" : envelope.error.code;
    const span = this.#tracer.startSpan(kind === "tool-call" ? "toolreg.call" : "toolreg.resume", {
      startTime: startedAt,
      attributes: {
        "toolreg.tool": tool?.name ?? name,
        "toolreg.effect": tool?.effect ?? "unknown",
        "toolreg.outcome": outcome,
        "toolreg.tenant": context.tenantId,
      },
    });
    if (!envelope.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: envelope.error.code });
    span.end();
    return this.#audit(
      this.#callEvent(kind, context, tool, name, {
        outcome,
        durationMs: Date.now() - startedAt,
        approvalId: trace.approvalId,
        idempotencyKey: trace.idempotencyKey,
        approval: trace.approval,
        message: envelope.ok ? undefined : envelope.error.message.slice(0, 500),
      }),
      context.logger,
    );
  }

  /** One literal with every field, not a spread: this runs on every call. */
  #callEvent(
    kind: AuditEvent["kind"],
    context: ExecutionContext,
    tool: AnyTool | undefined,
    name: string,
    fields: Pick<AuditEvent, "outcome"> & Partial<Omit<AuditEvent, "outcome">>,
  ): AuditEvent {
    return {
      tenantId: context.tenantId,
      id: newEventId(),
      at: this.#now(),
      kind,
      actor: context.principalId,
      runId: context.runId,
      toolCallId: context.toolCallId,
      tool: tool?.name ?? name.slice(0, 100),
      toolVersion: tool?.version,
      effect: tool?.effect,
      outcome: fields.outcome,
      durationMs: fields.durationMs,
      approvalId: fields.approvalId,
      idempotencyKey: fields.idempotencyKey,
      approval: fields.approval,
      message: fields.message,
    };
  }

  /** Synchronous when the sink is, so a call does not wait a tick for an in-memory append. */
  #audit(event: AuditEvent, logger: Logger = silentLogger): void | Promise<void> {
    // A failing audit sink must not turn a finished call into a crash; it is loud in the log instead.
    const report = (error: unknown) => logger.error({ err: error, tool: event.tool }, "audit sink failed");
    try {
      const pending = this.#stores.audit.record(event);
      if (pending) return pending.then(undefined, report);
    } catch (error) {
      report(error);
    }
  }
}

/** Creates the seam over a registry view and stores. */
export function createSeam(options: SeamOptions): Seam {
  return new Seam(options);
}
