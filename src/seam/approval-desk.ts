/**
 * @module Step 6's other half: parking a call for a human (once per key), recording the decision, resuming
 * an approved call exactly once after checking again that it may still run, and seeing that every
 * approval ends: a run whose outcome was lost is `interrupted`, and only an operator's retry runs it again.
 */
import { randomUUID } from "node:crypto";
import type { HumanReply, Unanswered } from "../declaration/human-ask.js";
import { canonicalJson } from "../declaration/tool-hash.js";
import {
  type ApprovalRecord,
  type AuditEvent,
  evidenceOf,
  type IdempotencyRecord,
  type Interruption,
  type NewApproval,
} from "../ports/stores.js";
import type { AnyTool } from "../registry/registry.js";
import { isVisible, unmetPrecondition, unstartable, validateInput } from "./call-checks.js";
import { callEvent, recordAudit } from "./call-record.js";
import type { CallTrace } from "./call-trace.js";
import { createExecutionContext, type ExecutionContext, type Logger } from "./context.js";
import { describeCall } from "./describe-call.js";
import { type Envelope, envelopeText, failure } from "./envelope.js";
import { newEventId } from "./event-id.js";
import { fingerprintOf, idempotencyKeyFor, storableInput } from "./idempotency-key.js";
import { type KeyedOutcome, type KeyedRunner, unknownOutcome } from "./keyed-runner.js";
import type { CallOptions, SeamSettings } from "./seam-settings.js";
import { storeFailure } from "./store-failure.js";
import { describeThrown, toEnvelope } from "./to-envelope.js";

export interface DecisionRequest {
  tenantId: string;
  approvalId: string;
  /** Who decided. */
  by: string;
  note?: string;
}

export type DecisionFailure =
  | "not_found"
  | "already_decided"
  | "expired"
  | "not_served"
  | "not_interrupted"
  /** The answers do not fit the call's questions (or it asks none): nothing was decided. */
  | "invalid_answers"
  /** The store failed under the decision: nothing was decided; retry later. */
  | "store_unavailable"
  /** The tool failed checking the answers (its own code threw): nothing was decided; retrying will not help. */
  | "internal";

export type DecisionResult =
  | { ok: true; approval: ApprovalRecord }
  | { ok: false; reason: DecisionFailure; message: string; approval?: ApprovalRecord };

/** How many approved approvals one sweep looks at for lost runs. */
const SWEEP_BATCH = 500;

export class ApprovalDesk {
  readonly #settings: SeamSettings;
  readonly #runner: KeyedRunner;

  constructor(settings: SeamSettings, runner: KeyedRunner) {
    this.#settings = settings;
    this.#runner = runner;
  }

  /**
   * Parks a call for a human, once per key: a duplicate (a retry, a framework resending its call) is
   * answered with the approval already made, and the same key with other arguments is refused before
   * anything is parked. The raw arguments are stored, not the parsed ones: resume validates them again,
   * and a schema that transforms its input must see what the model sent, not its own output.
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
    // approved is one call, and asking again for it must answer for that call, not park or run a second.
    const key = idempotencyKeyFor(context);
    trace.idempotencyKey = key;
    const fingerprint = fingerprintOf(context.principalId, tool.name, parsed.json);
    const { stores } = this.#settings;
    let previous: IdempotencyRecord | undefined;
    let parked: { created: boolean; record: ApprovalRecord };
    let request: AuditEvent | undefined;
    try {
      previous = await stores.idempotency.get({ tenantId: context.tenantId, key });
      if (previous && previous.fingerprint !== fingerprint) return conflict(key);
      if (previous?.status === "completed" && previous.envelope) {
        trace.replayed = true;
        return previous.envelope;
      }
      const asked = this.#newApproval(context, tool, rawInput, key, fingerprint);
      // Where the store can, the request's event goes in with the approval: none is parked without it.
      request =
        stores.approvals.parkingAudit === stores.audit ? this.#requestEvent(context, tool, asked) : undefined;
      parked = await stores.approvals.park(asked, request);
    } catch (error) {
      return storeFailure(`park ${tool.name} for approval`, error);
    }
    const record = parked.record;
    if (!sameCall(record, context.principalId, tool.name, fingerprint, raw.json)) return conflict(key);
    trace.approvalId = record.id;
    // A question a person answered whose run never started (its process stopped in between): the answers
    // are stored, and making the result from them changes nothing, so asking again makes it now.
    if (!parked.created && record.status === "approved" && tool.asksHuman && !previous) {
      return this.resume(context, record.id, {}, trace);
    }
    if (!parked.created) return this.#answerFor(record, previous);
    if (request) this.#settings.audit.announce(request);
    else await this.#recordRequest(context, tool, record);
    return parkedEnvelope(record, `${tool.name} needs a human's approval and has not run`);
  }

  /**
   * Pending → approved or denied, once: the first decision to commit wins. `answers` (for a call that
   * asks questions) are checked against its questions first and recorded with the approval in one write;
   * answers that do not fit are refused and nothing is decided.
   */
  async decide(
    request: DecisionRequest,
    decision: "approved" | "denied",
    answers?: unknown,
  ): Promise<DecisionResult> {
    const { stores, now } = this.#settings;
    let checked: { answers: unknown } | undefined;
    const at = now();
    if (decision === "approved") {
      const record = await stores.approvals.get({ tenantId: request.tenantId, id: request.approvalId });
      // Approving where the tool is not wired would leave it approved with nothing here to run it.
      const unserved = unservedBy(this.#settings.registry, request, record);
      if (unserved) return unserved;
      // One the store will refuse anyway (decided, expired) is refused for that, whatever the answers.
      if (record?.status === "pending" && record.expiresAt > at) {
        const fits = await this.#checkAnswers(request, record, answers);
        if (!fits.ok) return fits;
        checked = fits.checked;
      }
    }
    const decided = await stores.approvals.decide({
      tenantId: request.tenantId,
      id: request.approvalId,
      decision,
      by: request.by,
      at,
      ...(request.note === undefined ? {} : { note: request.note }),
      ...(checked === undefined ? {} : { answers: checked.answers }),
    });
    if (!decided.ok) {
      if (decided.reason === "not_found") return notFound(request.approvalId);
      const messages = {
        already_decided: `approval ${request.approvalId} was already decided (${decided.record?.status})`,
        expired: `approval ${request.approvalId} expired before it was decided`,
      };
      const result: DecisionResult = { ok: false, reason: decided.reason, message: messages[decided.reason] };
      if (decided.record) result.approval = decided.record;
      return result;
    }
    await this.#recordDecision(request, decided.record, "approval-decision", decision);
    return { ok: true, approval: decided.record };
  }

  /**
   * The answers an approval of this call records: a question tool's answers checked against its questions
   * (none given counts as none answered), none for any other tool, which takes none.
   */
  async #checkAnswers(
    request: DecisionRequest,
    record: ApprovalRecord | undefined,
    answers: unknown,
  ): Promise<{ ok: true; checked: { answers: unknown } | undefined } | (DecisionResult & { ok: false })> {
    const asks = record && this.#settings.registry.get(record.toolName)?.asksHuman;
    const refused = (message: string) => ({
      ok: false as const,
      reason: "invalid_answers" as const,
      message: `approval ${request.approvalId} was not decided: ${message}`,
      ...(record ? { approval: record } : {}),
    });
    // A missing approval is the store's to say, in its own words.
    if (!record) return { ok: true, checked: undefined };
    if (!asks?.checkAnswers) {
      return answers === undefined
        ? { ok: true, checked: undefined }
        : refused(`${record.toolName} asks no questions; approve or deny it`);
    }
    const tool = this.#settings.registry.get(record.toolName) as AnyTool;
    try {
      const input = await validateInput(tool, record.input);
      if (!input.ok)
        return refused(`its call no longer fits ${tool.name}'s input (${envelopeText(input.envelope)})`);
      const fits = asks.checkAnswers(input.value, answers ?? {});
      return fits.ok ? { ok: true, checked: { answers: fits.answers } } : refused(fits.message);
    } catch (error) {
      // The tool's own code failed, not the store: retrying later would fail the same way.
      this.#settings.logger.error({ err: error, tool: tool.name }, "checking a human's answers failed");
      return {
        ok: false,
        reason: "internal",
        message: `approval ${request.approvalId} was not decided: ${tool.name} failed while checking the answers (${describeThrown(error)}); it stays pending`,
        approval: record,
      };
    }
  }

  /**
   * An operator's explicit retry of a call whose run was lost (`interrupted`), or of an approved one that
   * never started (a stop or a failing store came between its approval and its run): run again at once
   * as its requester (`context`), under its own key, whose unknown outcome this retry alone may claim.
   * The approval is marked retried, and audited, only once the key is claimed, so a sweep in between
   * cannot undo it and a run still in progress is never retried.
   */
  async retry(
    request: DecisionRequest,
    context: ExecutionContext,
    options: CallOptions,
    trace: CallTrace,
  ): Promise<{ decision: DecisionResult; envelope: Envelope | undefined }> {
    const { stores, now, registry } = this.#settings;
    const record = await stores.approvals.get({ tenantId: request.tenantId, id: request.approvalId });
    const unserved = unservedBy(registry, request, record);
    if (unserved) return { decision: unserved, envelope: undefined };
    if (!record) return { decision: notFound(request.approvalId), envelope: undefined };
    const claim = await stores.idempotency.get({ tenantId: record.tenantId, key: record.idempotencyKey });
    const neverStarted = record.status === "approved" && claim === undefined;
    if (record.status !== "interrupted" && !neverStarted) {
      const why =
        record.status === "approved"
          ? "its run is in progress (or its result is being recorded)"
          : `it is ${record.status}`;
      const message = `approval ${request.approvalId} cannot be retried: ${why}; only an interrupted call, or an approved one that never started, can`;
      return {
        decision: { ok: false, reason: "not_interrupted", message, approval: record },
        envelope: undefined,
      };
    }
    let decision: DecisionResult | undefined;
    const markRetried = async (): Promise<Envelope | undefined> => {
      const retried = neverStarted
        ? { ok: true as const, record }
        : await stores.approvals.retry({
            tenantId: request.tenantId,
            id: request.approvalId,
            by: request.by,
            at: now(),
          });
      if (!retried.ok) {
        decision = {
          ok: false,
          reason: "not_interrupted",
          message: `approval ${request.approvalId} was settled meanwhile (${retried.record?.status}); it was not retried`,
          ...(retried.record ? { approval: retried.record } : {}),
        };
        return failure("approval_denied", decision.message, { details: { approvalId: request.approvalId } });
      }
      decision = { ok: true, approval: retried.record };
      await this.#recordDecision(request, retried.record, "approval-retry", "approved");
      return undefined;
    };
    const envelope = await this.resume(context, request.approvalId, options, trace, markRetried);
    if (decision) return { decision, envelope: decision.ok ? envelope : undefined };
    // The key was never claimed: still running elsewhere, refused before it ran, or the store failed.
    const message = `approval ${request.approvalId} was not retried: ${envelope.ok ? "it had run" : envelope.error.message}`;
    return {
      decision: { ok: false, reason: "not_interrupted", message, approval: record },
      envelope: undefined,
    };
  }

  /**
   * Runs an approved call under its approval's key, after checking again that it may still run. Given
   * `retry`, it is an operator's retry: the approval may be interrupted (`retry` marks it retried once the
   * key is claimed) and its lifetime does not bind, since a person has just decided.
   */
  async resume(
    context: ExecutionContext,
    approvalId: string,
    options: CallOptions,
    trace: CallTrace,
    retry?: () => Promise<Envelope | undefined>,
  ): Promise<Envelope> {
    const { stores, registry, now } = this.#settings;
    const { tenantId } = context;
    const record = await stores.approvals.get({ tenantId, id: approvalId });
    if (!record) return failure("not_authorized", `there is no approval "${approvalId}" for this tenant`);
    trace.idempotencyKey = record.idempotencyKey;
    if (record.requestedBy !== context.principalId) {
      return failure("not_authorized", `approval ${approvalId} was requested by another principal`);
    }
    const runnable = record.status === "approved" || (retry !== undefined && record.status === "interrupted");
    if (!runnable) return this.#answerFor(record, undefined);
    if (!retry && record.expiresAt <= now()) {
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
      if (settled === refusal) {
        const fresh = this.#newApproval(
          context,
          tool,
          record.input,
          record.idempotencyKey,
          record.fingerprint,
        );
        const created = await stores.approvals.create({ ...fresh, id: freshId });
        await this.#recordRequest(context, tool, created);
      }
      return settled;
    }
    const input = await validateInput(tool, record.input);
    if (!input.ok) return this.#refuse(context, approvalId, input.envelope);
    const notNow = (await unmetPrecondition(tool, context)) ?? unstartable(context, tool, now());
    if (notNow) return notNow;
    const held = await this.#settings.audit.admit(tool.name);
    if (held) return held;

    const outcome = await this.#runner.run({
      context,
      // A question to a human is answered from the human's reply, recorded with the approval.
      tool: tool.asksHuman ? answering(tool, replyOf(record)) : tool,
      input: input.value,
      key: record.idempotencyKey,
      approvalId,
      options,
      trace,
      retryUnknown: retry !== undefined,
      // Once the key is ours, the approval must still say run: a sweep may have refused it meanwhile.
      admit: retry ?? (() => this.#stillApproved(context, approvalId)),
      onLateStore: (envelope) => {
        this.#finish(record, envelope).catch((error: unknown) =>
          context.logger.error({ err: error, approvalId }, "could not finish an approval"),
        );
      },
    });
    await this.#settle(context, record, outcome);
    return outcome.envelope;
  }

  /** Undefined while the approval still says run; otherwise what it now says instead. */
  async #stillApproved(context: ExecutionContext, approvalId: string): Promise<Envelope | undefined> {
    const now = await this.#settings.stores.approvals.get({ tenantId: context.tenantId, id: approvalId });
    if (now?.status === "approved") return undefined;
    return now
      ? this.#answerFor(now, undefined)
      : failure("not_authorized", `approval ${approvalId} is gone`);
  }

  /**
   * Housekeeping: approved calls whose run ended without the approval hearing of it. A stored result
   * finishes it; a run found lost (its holder gone, or its outcome unknown) interrupts it; one that never
   * started and outlived its approval is refused, as resume would. One record that fails is logged and
   * the rest are still looked at.
   */
  async sweepApproved(): Promise<number> {
    const { stores, logger } = this.#settings;
    let settled = 0;
    for (const record of await stores.approvals.listApproved({ limit: SWEEP_BATCH })) {
      try {
        if (await this.#sweepOne(record)) settled++;
      } catch (error) {
        logger.error({ err: error, approvalId: record.id }, "sweep could not settle an approval");
      }
    }
    return settled;
  }

  async #sweepOne(record: ApprovalRecord): Promise<boolean> {
    const { stores, now, logger } = this.#settings;
    const context = requesterContext(record, logger);
    const claim = await stores.idempotency.get({ tenantId: record.tenantId, key: record.idempotencyKey });
    // A record written before approvals kept fingerprints is matched by its tool.
    const ours =
      claim !== undefined &&
      (record.fingerprint ? claim.fingerprint === record.fingerprint : claim.toolName === record.toolName);
    if (!claim || !ours) {
      if (record.expiresAt > now()) return false;
      const refusal = failure("approval_denied", `approval ${record.id} expired before it ran`);
      if ((await this.#refuse(context, record.id, refusal)) === refusal) {
        const event = callEvent(this.#settings, "approval-resume", context, undefined, record.toolName, {
          outcome: "approval_denied",
          approvalId: record.id,
          idempotencyKey: record.idempotencyKey,
          message: refusal.error.message,
        });
        await recordAudit(this.#settings, event, logger);
      }
      return true;
    }
    if (claim.status === "completed" && claim.envelope) {
      await this.#finish(record, claim.envelope);
      return true;
    }
    if (claim.status === "unknown" || claim.leaseUntil <= now()) {
      await this.interrupt(context, record, { reason: "lost", at: now(), ...evidenceOf(claim) });
      return true;
    }
    return false;
  }

  /** Approved → interrupted, with what is known, and an audit event that says so. */
  async interrupt(
    context: ExecutionContext,
    record: ApprovalRecord,
    interruption: Interruption,
  ): Promise<boolean> {
    const { stores } = this.#settings;
    const interrupted = await stores.approvals.interrupt({
      tenantId: record.tenantId,
      id: record.id,
      interruption,
    });
    if (interrupted) {
      const event = callEvent(
        this.#settings,
        "tool-call-interrupt",
        context,
        this.#settings.registry.get(record.toolName),
        record.toolName,
        {
          outcome: "interrupted",
          approvalId: record.id,
          idempotencyKey: record.idempotencyKey,
          message: interruptionMessage(record.id, interruption),
        },
      );
      await recordAudit(this.#settings, event, context.logger);
    }
    return interrupted;
  }

  /** What a call that found its approval already made is told: where that approval stands. */
  async #answerFor(record: ApprovalRecord, claim: IdempotencyRecord | undefined): Promise<Envelope> {
    const id = record.id;
    const unanswered = await this.#unanswered(record);
    if (unanswered) return unanswered;
    switch (record.status) {
      case "pending":
        return record.expiresAt <= this.#settings.now()
          ? failure("approval_denied", `approval ${id} expired before anyone decided it`, {
              details: { approvalId: id },
            })
          : parkedEnvelope(record, `${record.toolName} is already parked and has not run`);
      case "denied":
        return failure(
          "approval_denied",
          `approval ${id} was denied by ${record.decidedBy}${record.note ? `: ${record.note}` : ""}`,
          { details: { approvalId: id } },
        );
      case "expired":
        return failure("approval_denied", `approval ${id} expired before anyone decided it`, {
          details: { approvalId: id },
        });
      case "approved":
        return failure(
          "in_progress",
          claim
            ? `approval ${id} was approved and ${record.toolName} is running; retry shortly`
            : `approval ${id} was approved and ${record.toolName} has not started yet; retry shortly (an operator can start it with a retry)`,
          { retryAfterMs: 1_000, details: { approvalId: id } },
        );
      case "executed":
      case "refused":
        return record.result ?? failure("internal", `approval ${id} finished without a recorded result`);
      case "interrupted": {
        const known =
          record.interruption ??
          (claim ? { reason: "lost" as const, at: claim.updatedAt, ...evidenceOf(claim) } : undefined);
        const envelope = unknownOutcome(record.toolName, record.idempotencyKey, {
          startedAt: known?.startedAt ?? 0,
          by: known?.by ?? record.requestedBy,
          holder: known?.holder ?? "",
          lastHeartbeat: known?.lastHeartbeat ?? 0,
        });
        if (!envelope.ok) envelope.error.details = { ...envelope.error.details, approvalId: id };
        return envelope;
      }
    }
  }

  /**
   * A question to a human nobody approved (denied, or out of time): the tool's own result saying so, which
   * the model acts on. Undefined for any other approval, or one still open.
   */
  async #unanswered(record: ApprovalRecord): Promise<Envelope | undefined> {
    const outcome: Unanswered | undefined =
      record.status === "denied"
        ? {
            status: "denied",
            by: record.decidedBy ?? "",
            at: record.decidedAt ?? 0,
            note: record.note,
          }
        : record.status === "expired" ||
            (record.status === "pending" && record.expiresAt <= this.#settings.now())
          ? { status: "expired", expiresAt: record.expiresAt }
          : undefined;
    const tool = outcome && this.#settings.registry.get(record.toolName);
    if (!outcome || !tool?.asksHuman || tool.hash !== record.definitionHash) return undefined;
    const input = await validateInput(tool, record.input);
    if (!input.ok) return undefined;
    try {
      return toEnvelope(tool, tool.asksHuman.unanswered(input.value, outcome));
    } catch (error) {
      return failure(
        "internal",
        `${tool.name} could not say its approval ${record.id} went unanswered: ${describeThrown(error)}`,
      );
    }
  }

  /** What the run of an approved call leaves on its approval. */
  async #settle(context: ExecutionContext, record: ApprovalRecord, outcome: KeyedOutcome): Promise<void> {
    // Past the seam's stop its stores may be closed; the interruption already recorded stands.
    if (this.#runner.stopped) return;
    try {
      switch (outcome.kind) {
        case "ran":
          // Lost to another claim: that one settles the approval. Stored later: `onLateStore` does.
          if (outcome.stored === "yes") await this.#finish(record, outcome.envelope);
          return;
        case "replayed":
          await this.#finish(record, outcome.envelope);
          return;
        case "unknown":
          await this.interrupt(context, record, {
            reason: "lost",
            at: this.#settings.now(),
            ...outcome.evidence,
          });
          return;
        case "not_run":
          // Another call holds the key for other arguments: this approval can never run.
          if (!outcome.envelope.ok && outcome.envelope.error.code === "idempotency_conflict") {
            await this.#refuse(context, record.id, outcome.envelope);
          }
      }
    } catch (error) {
      // The run is over and its result is with the caller; the sweep finishes the approval later.
      context.logger.error(
        { err: error, approvalId: record.id },
        "could not record how an approved call ended",
      );
    }
  }

  async #finish(record: ApprovalRecord, result: Envelope): Promise<void> {
    await this.#settings.stores.approvals.finish({
      tenantId: record.tenantId,
      id: record.id,
      status: "executed",
      result,
      at: this.#settings.now(),
    });
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

  async #recordDecision(
    request: DecisionRequest,
    record: ApprovalRecord,
    kind: "approval-decision" | "approval-retry",
    outcome: "approved" | "denied",
  ): Promise<void> {
    await recordAudit(this.#settings, {
      tenantId: request.tenantId,
      id: newEventId(),
      at: this.#settings.now(),
      kind,
      actor: request.by,
      runId: record.runId,
      toolCallId: record.toolCallId,
      tool: record.toolName,
      toolVersion: record.toolVersion,
      effect: record.effect,
      outcome,
      durationMs: undefined,
      approvalId: record.id,
      idempotencyKey: record.idempotencyKey,
      approval: "always",
      message: request.note,
    });
  }

  #newApproval(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    key: string,
    fingerprint: string,
  ): NewApproval {
    const now = this.#settings.now();
    return {
      tenantId: context.tenantId,
      id: randomUUID(),
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
      fingerprint,
      createdAt: now,
      expiresAt: now + this.#settings.approvalTtlMs,
    };
  }

  async #recordRequest(context: ExecutionContext, tool: AnyTool, record: NewApproval): Promise<void> {
    await recordAudit(this.#settings, this.#requestEvent(context, tool, record), context.logger);
  }

  #requestEvent(context: ExecutionContext, tool: AnyTool, record: NewApproval): AuditEvent {
    return callEvent(this.#settings, "approval-request", context, tool, tool.name, {
      outcome: "approval_required",
      approvalId: record.id,
      idempotencyKey: record.idempotencyKey,
      message: record.description,
    });
  }
}

/** A question tool whose run is the human's reply: `answered` in place of `run`, the rest unchanged. */
function answering(tool: AnyTool, reply: HumanReply): AnyTool {
  const asks = tool.asksHuman;
  if (!asks) return tool;
  return Object.freeze({ ...tool, run: (input: unknown) => asks.answered(input, reply) });
}

function replyOf(record: ApprovalRecord): HumanReply {
  return {
    by: record.decidedBy ?? "",
    at: record.decidedAt ?? 0,
    note: record.note,
    answers: record.answers,
  };
}

/** A decision cannot be taken where the approval's tool is not served: it would have nothing to run. */
function unservedBy(
  registry: SeamSettings["registry"],
  request: DecisionRequest,
  record: ApprovalRecord | undefined,
): DecisionResult | undefined {
  if (!record || registry.get(record.toolName)) return undefined;
  return {
    ok: false,
    reason: "not_served",
    message: `approval ${request.approvalId} is for ${record.toolName}, which this process does not serve; it was left ${record.status}. Decide it where ${record.toolName} is wired`,
    approval: record,
  };
}

function notFound(approvalId: string): DecisionResult {
  return { ok: false, reason: "not_found", message: `there is no approval "${approvalId}" for this tenant` };
}

/** The answer to a call under a key already taken for another call. */
function conflict(key: string): Envelope {
  return failure(
    "idempotency_conflict",
    `idempotency key "${key}" was already used for another call (other arguments, another tool or another caller); nothing was parked or run. Use a new key for a different call`,
  );
}

/** The answer to a parked call: what it waits for and under which approval. */
function parkedEnvelope(record: ApprovalRecord, lead: string): Envelope {
  return failure(
    "approval_required",
    `${lead}. It is parked as approval ${record.id}; tell the user, and do not call it again`,
    { details: { approvalId: record.id, expiresAt: new Date(record.expiresAt).toISOString() } },
  );
}

/**
 * Whether an approval found under a key is for this very call. One written before approvals kept
 * fingerprints is compared by its requester, tool and arguments as sent.
 */
function sameCall(
  record: ApprovalRecord,
  principalId: string,
  toolName: string,
  fingerprint: string,
  rawJson: string,
): boolean {
  if (record.fingerprint) return record.fingerprint === fingerprint;
  return (
    record.requestedBy === principalId &&
    record.toolName === toolName &&
    (canonicalJson(record.input) ?? "null") === rawJson
  );
}

/** The context housekeeping records an approval's events in: its requester's, as when it was asked. */
function requesterContext(record: ApprovalRecord, logger: Logger): ExecutionContext {
  return createExecutionContext({
    tenantId: record.tenantId,
    principalId: record.requestedBy,
    runId: record.runId,
    toolCallId: record.toolCallId,
    logger,
  });
}

function interruptionMessage(approvalId: string, interruption: Interruption): string {
  const why =
    interruption.reason === "shutdown"
      ? "its process stopped before it finished"
      : "its process was found gone before it finished";
  return `approval ${approvalId}: ${why}; the outcome is unknown and it will not run again unless an operator retries it`;
}
