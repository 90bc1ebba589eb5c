/**
 * @module Step 6's other half: parking a call for a human, recording the decision, and resuming an
 * approved call exactly once, after checking again that it may still run.
 */
import { randomUUID } from "node:crypto";
import type { AnyTool } from "../registry/registry.js";
import type { ApprovalRecord } from "../stores/types.js";
import { isVisible, unmetPrecondition, unstartable, validateInput } from "./call-checks.js";
import { callEvent, recordAudit } from "./call-record.js";
import type { CallTrace } from "./call-trace.js";
import type { ExecutionContext } from "./context.js";
import { describeCall } from "./describe-call.js";
import { type Envelope, failure } from "./envelope.js";
import { newEventId } from "./event-id.js";
import { fingerprintOf, idempotencyKeyFor, storableInput } from "./idempotency-key.js";
import type { KeyedRunner } from "./keyed-runner.js";
import type { CallOptions, SeamSettings } from "./seam-settings.js";

export interface DecisionRequest {
  tenantId: string;
  approvalId: string;
  /** Who decided. */
  by: string;
  note?: string;
}

export type DecisionResult =
  | { ok: true; approval: ApprovalRecord }
  | {
      ok: false;
      reason: "not_found" | "already_decided" | "expired";
      message: string;
      approval?: ApprovalRecord;
    };

export class ApprovalDesk {
  readonly #settings: SeamSettings;
  readonly #runner: KeyedRunner;

  constructor(settings: SeamSettings, runner: KeyedRunner) {
    this.#settings = settings;
    this.#runner = runner;
  }

  /**
   * Parks a call for a human. The raw arguments are stored, not the parsed ones: resume validates them
   * again, and a schema that transforms its input must see what the model sent, not its own output.
   */
  async park(
    context: ExecutionContext,
    tool: AnyTool,
    rawInput: unknown,
    input: unknown,
    trace: CallTrace,
  ): Promise<Envelope> {
    const raw = storableInput(rawInput);
    if (!raw.ok) return failure("invalid_input", `invalid input for ${tool.name}: ${raw.reason}`);
    const parsed = storableInput(input);
    if (!parsed.ok) return failure("invalid_input", `invalid input for ${tool.name}: ${parsed.reason}`);
    // Every parked call runs under the tool call's key, a tool that needs none included: the call a human
    // approved is one call, and asking again for the same tool call (a framework resending its approval)
    // must replay what ran, not run it twice.
    const key = idempotencyKeyFor(context);
    const previous = await this.#settings.stores.idempotency.get({ tenantId: context.tenantId, key });
    if (
      previous?.status === "completed" &&
      previous.envelope &&
      previous.fingerprint === fingerprintOf(context.principalId, tool.name, parsed.json)
    ) {
      trace.replayed = true;
      return previous.envelope;
    }
    const record = await this.#create(context, tool, rawInput, key);
    trace.approvalId = record.id;
    trace.idempotencyKey = record.idempotencyKey;
    return failure(
      "approval_required",
      `${tool.name} needs a human's approval and has not run. It is parked as approval ${record.id}; tell the user, and do not call it again`,
      { details: { approvalId: record.id, expiresAt: new Date(record.expiresAt).toISOString() } },
    );
  }

  /** Pending → approved or denied, once: the first decision to commit wins. */
  async decide(request: DecisionRequest, decision: "approved" | "denied"): Promise<DecisionResult> {
    const decided = await this.#settings.stores.approvals.decide({
      tenantId: request.tenantId,
      id: request.approvalId,
      decision,
      by: request.by,
      at: this.#settings.now(),
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
    await recordAudit(this.#settings, {
      tenantId: request.tenantId,
      id: newEventId(),
      at: this.#settings.now(),
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

  /** Runs an approved call under its approval's key, after checking again that it may still run. */
  async resume(
    context: ExecutionContext,
    approvalId: string,
    options: CallOptions,
    trace: CallTrace,
  ): Promise<Envelope> {
    const { stores, registry, now } = this.#settings;
    const { tenantId } = context;
    const record = await stores.approvals.get({ tenantId, id: approvalId });
    if (!record) return failure("not_authorized", `there is no approval "${approvalId}" for this tenant`);
    trace.idempotencyKey = record.idempotencyKey;
    if (record.requestedBy !== context.principalId) {
      return failure("not_authorized", `approval ${approvalId} was requested by another principal`);
    }
    switch (record.status) {
      case "pending":
        return record.expiresAt <= now()
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
    if (record.expiresAt <= now()) {
      // An approval is good for its lifetime, not forever: the world it was judged in has moved on.
      return this.#refuse(
        context,
        approvalId,
        failure("approval_denied", `approval ${approvalId} expired before it ran`),
      );
    }

    const tool = registry.get(record.toolName);
    trace.tool = tool;
    if (context.mode === "disabled" || !tool || !isVisible(this.#settings, context, tool)) {
      const message = `${record.toolName} is no longer available to this caller; approval ${approvalId} was not run`;
      return this.#refuse(context, approvalId, failure("not_authorized", message));
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
        await this.#create(context, tool, record.input, record.idempotencyKey, freshId);
      return settled;
    }
    const input = await validateInput(tool, record.input);
    if (!input.ok) return this.#refuse(context, approvalId, input.envelope);
    const notNow = (await unmetPrecondition(tool, context)) ?? unstartable(context, tool, now());
    if (notNow) return notNow;

    const envelope = await this.#runner.run(
      context,
      tool,
      input.value,
      record.idempotencyKey,
      approvalId,
      options,
      trace,
    );
    if (envelope.ok || envelope.error.code !== "in_progress") {
      await stores.approvals.finish({
        tenantId,
        id: approvalId,
        status: "executed",
        result: envelope,
        at: now(),
      });
    }
    return envelope;
  }

  /** Approved → refused, once; a caller that lost the race gets the refusal that won. */
  async #refuse(context: ExecutionContext, approvalId: string, envelope: Envelope): Promise<Envelope> {
    const { tenantId } = context;
    const { stores, now } = this.#settings;
    const won = await stores.approvals.finish({
      tenantId,
      id: approvalId,
      status: "refused",
      result: envelope,
      at: now(),
    });
    if (won) return envelope;
    const settled = await stores.approvals.get({ tenantId, id: approvalId });
    return settled?.result ?? envelope;
  }

  async #create(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    key: string,
    id: string = randomUUID(),
  ): Promise<ApprovalRecord> {
    const now = this.#settings.now();
    const record = await this.#settings.stores.approvals.create({
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
      idempotencyKey: key,
      createdAt: now,
      expiresAt: now + this.#settings.approvalTtlMs,
    });
    const event = callEvent(this.#settings, "approval-request", context, tool, tool.name, {
      outcome: "approval_required",
      approvalId: id,
      idempotencyKey: record.idempotencyKey,
      message: record.description,
    });
    await recordAudit(this.#settings, event, context.logger);
    return record;
  }
}
