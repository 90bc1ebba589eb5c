/** @module The seam: the one path every tool call takes, in the ten steps of the design. */
import { type Approval, changesData } from "../declaration/effect.js";
import type { Interruption } from "../ports/stores.js";
import type { AnyTool, RegistryView } from "../registry/registry.js";
import { withCallSpan } from "../telemetry/call-span.js";
import { ApprovalDesk, type DecisionRequest, type DecisionResult } from "./approval-desk.js";
import { isVisible, unmetPrecondition, type Validated, validateInput } from "./call-checks.js";
import { beginCallSpan, callEvent, recordAudit, recordCall, recordCallTelemetry } from "./call-record.js";
import { type CallTrace, newCallTrace } from "./call-trace.js";
import {
  type ConnectStart,
  type ConsentCallback,
  type ConsentCompletion,
  ConsentDesk,
  type GrantOf,
} from "./consent/consent-desk.js";
import { type CredentialNeed, credentialNeedOf } from "./consent/credential-need.js";
import type { ExecutionContext } from "./context.js";
import { type Envelope, failure } from "./envelope.js";
import { idempotencyKeyFor } from "./idempotency-key.js";
import { KeyedRunner, reclaimable, shuttingDown } from "./keyed-runner.js";
import { nearestNames } from "./nearest-names.js";
import type { RunningCall } from "./running-calls.js";
import { type CallOptions, resolveSettings, type SeamOptions, type SeamSettings } from "./seam-settings.js";
import { describeThrown } from "./to-envelope.js";

export type { DecisionFailure, DecisionRequest, DecisionResult } from "./approval-desk.js";
export type { ConnectStart, ConsentCallback, ConsentCompletion, GrantOf } from "./consent/consent-desk.js";
export type { CallOptions, SeamOptions } from "./seam-settings.js";

/** A name from a model may be anything; never let printing it throw. */
function printableName(name: unknown): string {
  return typeof name === "string" ? name : `<${typeof name}>`;
}

export class Seam {
  readonly #settings: SeamSettings;
  readonly #runner: KeyedRunner;
  readonly #desk: ApprovalDesk;
  readonly #consent: ConsentDesk | undefined;

  constructor(options: SeamOptions) {
    this.#settings = resolveSettings(options);
    this.#runner = new KeyedRunner(this.#settings);
    this.#desk = new ApprovalDesk(this.#settings, this.#runner);
    const consent = this.#settings.consent;
    this.#consent = consent
      ? new ConsentDesk(this.#settings, consent, async (context, tool, raw, input, options, trace) =>
          this.#approve(context, tool, raw, input, options, trace, this.#settings.now(), true),
        )
      : undefined;
  }

  /** The registry this seam serves, at its current revision. */
  get registry(): RegistryView {
    return this.#settings.registry;
  }

  /** The tools this caller may see and call: the same filter discovery and the call path use. */
  visibleTools(context: ExecutionContext): AnyTool[] {
    if (context.mode === "disabled") return [];
    return this.#settings.registry.list().filter((tool) => isVisible(this.#settings, context, tool));
  }

  /** Whether this caller may see and call one tool: `visibleTools` for a single tool, without listing all. */
  mayUse(context: ExecutionContext, tool: AnyTool): boolean {
    return context.mode !== "disabled" && isVisible(this.#settings, context, tool);
  }

  /**
   * Whether a call would stop at the approval step (step 6) rather than run: what a framework's own
   * approval flag (`needsApproval`) is mapped from. Runs nothing, parks nothing and takes nothing from a
   * ceiling; an unknown tool or invalid input answers false, since the call itself refuses those. A
   * `policy` tool asks the host's policy, so that policy sees the question twice: here and at the call.
   */
  async needsApproval(context: ExecutionContext, name: string, input: unknown): Promise<boolean> {
    try {
      return await this.#needsApproval(context, name, input, true);
    } catch (error) {
      // Asking is the safe answer when the question itself fails.
      context.logger.warn({ err: error, tool: printableName(name) }, "approval preview failed");
      return true;
    }
  }

  async #needsApproval(
    context: ExecutionContext,
    name: string,
    input: unknown,
    followDelegation: boolean,
  ): Promise<boolean> {
    if (context.mode === "disabled") return false;
    const settings = this.#settings;
    const tool = typeof name === "string" ? settings.registry.get(name) : undefined;
    if (!tool || !isVisible(settings, context, tool)) return false;
    const validated = await validateInput(tool, input === undefined ? {} : input);
    if (!validated.ok) return false;
    // One level only: a wrapper that wraps a wrapper is refused when it runs.
    const delegated = followDelegation ? tool.delegatesTo?.(validated.value) : undefined;
    if (delegated) return this.#needsApproval(context, delegated.name, delegated.input, false);
    if (context.mode === "gated" && changesData(tool.effect)) return true;
    if (tool.approval === "always") return true;
    if (tool.approval === "never") return false;
    const decision = await settings.policy.decide({ context, tool, input: validated.value });
    return decision.decision === "ask";
  }

  /**
   * Calls a tool by name. Never throws: every outcome is an envelope. Not an async function: a call that
   * needs no store and no host port until the tool runs takes no extra promise on its way.
   */
  call(
    context: ExecutionContext,
    name: string,
    input: unknown,
    options: CallOptions = {},
  ): Promise<Envelope> {
    const startedAt = Date.now();
    const printable = printableName(name);
    const trace = newCallTrace("tool-call", printable, startedAt);
    beginCallSpan(this.#settings, context, trace);
    const finish = (envelope: Envelope): Envelope | Promise<Envelope> => {
      // Recording runs the host's clock, tracer and logger: whatever they throw, the call has its answer.
      try {
        const recorded = recordCall(this.#settings, context, trace, envelope);
        return recorded
          ? recorded.then(
              () => envelope,
              () => envelope,
            )
          : envelope;
      } catch {
        return envelope;
      }
    };
    let result: Envelope | Promise<Envelope>;
    try {
      // The seam's clock at the start, for the steps that run before the call first waits (a reading
      // costs some 30 ns here, and most calls wait only for the tool itself). A host's clock may throw.
      const now = this.#settings.realClock ? startedAt : this.#settings.now();
      // No closure for a call without a span: most calls run with no tracer installed.
      result = trace.span
        ? withCallSpan(trace.span, () => this.#call(context, name, input, options, trace, now))
        : this.#call(context, name, input, options, trace, now);
    } catch (error) {
      result = crashed(context, printable, error);
    }
    if (result instanceof Promise) {
      return result.then(finish, (error: unknown) => finish(crashed(context, printable, error)));
    }
    return Promise.resolve(finish(result));
  }

  /** Runs an approved call, exactly once however often it is resumed; re-checks authorization first. */
  resume(context: ExecutionContext, approvalId: string, options: CallOptions = {}): Promise<Envelope> {
    return this.#resumed(context, approvalId, (trace) =>
      this.#desk.resume(context, approvalId, options, trace),
    );
  }

  /**
   * A call parked for its user's consent, asked after by its requester: its result once resumed (the same
   * however often it is asked), else resumed now if the credential has been connected meanwhile.
   */
  resumeParked(
    context: ExecutionContext,
    parkedCallId: string,
    options: CallOptions = {},
  ): Promise<Envelope> {
    if (!this.#consent) {
      return Promise.resolve(failure("not_authorized", "this deployment parks no call for consent"));
    }
    return this.#consent
      .resumeFor(context, parkedCallId, options)
      .catch((error: unknown) => crashed(context, "", error));
  }

  /**
   * The provider sent the user back (`GET /oauth/callback`): the code is exchanged, the tokens stored, and
   * each call waiting on that credential resumed once, with its user's grant now (`grantOf`, as a server
   * knows it from their key) or, without it, the one they called with.
   */
  completeConsent(callback: ConsentCallback, grantOf?: GrantOf): Promise<ConsentCompletion> {
    if (!this.#consent) {
      return Promise.resolve({
        ok: false,
        reason: "unknown_state",
        message: "this deployment asks for no consent",
      });
    }
    return this.#consent.complete(callback, grantOf);
  }

  /** Where a consent's start link sends its own user (the provider's authorization URL); refused to anyone else. */
  consentAuthorization(
    user: { tenantId: string; principalId: string },
    consentId: string,
  ): Promise<{ ok: true; url: string; expiresAt: number } | { ok: false; message: string }> {
    if (!this.#consent) {
      return Promise.resolve({ ok: false, message: "this deployment asks for no consent" });
    }
    return this.#consent.authorizationOf(user, consentId);
  }

  /** A user connecting `need`'s credential ahead of any call: a consent's start link, or why there is none. */
  connectCredential(
    user: { tenantId: string; principalId: string },
    need: CredentialNeed,
    scopes: readonly string[],
  ): Promise<ConnectStart> {
    if (!this.#consent) {
      return Promise.resolve({
        ok: false,
        reason: "consent_unavailable",
        message: "this deployment asks for no consent: it keeps no credentials",
      });
    }
    return this.#consent.connect(user, need, scopes);
  }

  /** Approves a parked call; refused (left pending) where its tool is not served, since nothing here could run it. */
  approve(request: DecisionRequest): Promise<DecisionResult> {
    return decided(request, () => this.#desk.decide(request, "approved"));
  }

  /**
   * Approves a parked call that asked questions, with a human's answers: checked against its questions
   * (a missing required answer, a choice not offered: refused, nothing decided) and recorded with the
   * decision in one write, so it is answered once. Resume it then, as after `approve`.
   */
  answer(request: DecisionRequest, answers: unknown): Promise<DecisionResult> {
    return decided(request, () => this.#desk.decide(request, "approved", answers));
  }

  deny(request: DecisionRequest): Promise<DecisionResult> {
    return decided(request, () => this.#desk.decide(request, "denied"));
  }

  /**
   * An operator's explicit retry of an interrupted call (one whose outcome was lost), or of an approved
   * one that never started: audited, then run at once as its requester (`context`), under its own key.
   * Never done on anyone's behalf automatically.
   */
  async retry(
    request: DecisionRequest,
    context: ExecutionContext,
    options: CallOptions = {},
  ): Promise<{ decision: DecisionResult; envelope: Envelope | undefined }> {
    let decision: DecisionResult = storeUnavailable(request);
    const envelope = await this.#resumed(context, request.approvalId, async (trace) => {
      const retried = await this.#desk.retry(request, context, options, trace);
      decision = retried.decision;
      return retried.envelope;
    });
    return { decision, envelope: decision.ok ? envelope : undefined };
  }

  /**
   * Housekeeping the host runs now and then (the CLI runs it as it opens its state, the server each
   * minute): deletes completed idempotency records past their retention, marks approvals past their
   * expiry as expired, and settles approved calls whose run ended unheard of (finished, or interrupted
   * when their outcome was lost).
   */
  async sweep(): Promise<{ purged: number; expired: number; settled: number }> {
    // A stopping seam writes nothing more: the next process to start sweeps.
    if (this.#runner.stopping) return { purged: 0, expired: 0, settled: 0 };
    const { stores, now } = this.#settings;
    const purged = await stores.idempotency.purge({ now: now() });
    const expired = await stores.approvals.expire({ now: now() });
    const settled = await this.#desk.sweepApproved();
    // Consents and the calls parked for them expire like undecided approvals.
    const consents = (await this.#consent?.sweep()) ?? 0;
    return { purged, expired: expired + consents, settled };
  }

  /**
   * Stops the seam before its stores close: refuses new calls that change data, waits up to `drainMs`
   * (or until `force` aborts) for those running to end, then records each one still running as
   * interrupted (its claim unknown, an audit event, its approval interrupted) instead of leaving it in
   * flight for ever. Nothing is written after it resolves.
   */
  async stop(drainMs: number, force?: AbortSignal): Promise<{ drained: boolean; interrupted: number }> {
    this.#runner.beginStop();
    const drained = await this.#runner.running.whenIdle(drainMs, force);
    let interrupted = 0;
    if (!drained) {
      for (const { call, abandoned } of await this.#runner.abandonRunning()) {
        interrupted++;
        await this.#recordInterrupted(call, abandoned);
      }
    }
    await this.#runner.stop();
    return { drained, interrupted };
  }

  /**
   * The last step before the stores close, once every request has drained: audit events still waiting
   * are offered once more, and what cannot be written goes to the log whole. An event after this is
   * logged only.
   */
  async close(): Promise<void> {
    await this.#settings.audit.close();
  }

  async #recordInterrupted(call: RunningCall, abandoned: boolean): Promise<void> {
    const { context, tool, claim, approvalId } = call;
    const settings = this.#settings;
    try {
      const interruption: Interruption = {
        reason: "shutdown",
        at: settings.now(),
        startedAt: call.startedAt,
        by: context.principalId,
        holder: settings.holder,
        lastHeartbeat: call.heartbeatAt,
      };
      const approval = approvalId
        ? await settings.stores.approvals.get({ tenantId: context.tenantId, id: approvalId })
        : undefined;
      // The approval's own event says it all; a call without one gets an event of its own.
      if (approval && abandoned && (await this.#desk.interrupt(context, approval, interruption))) return;
      const event = callEvent(settings, "tool-call-interrupt", context, tool, tool.name, {
        outcome: "interrupted",
        ...(claim ? { idempotencyKey: claim.key } : {}),
        ...(approvalId ? { approvalId } : {}),
        message: `${tool.name} was still running when the process stopped; its outcome is unknown${stoppedClaim(call)}`,
      });
      await recordAudit(settings, event, context.logger);
    } catch (error) {
      context.logger.error({ err: error, tool: tool.name }, "could not record an interrupted call");
    }
  }

  /** A resume or a retry, recorded as one: an audit event and a span, whatever happens inside. */
  async #resumed(
    context: ExecutionContext,
    approvalId: string,
    body: (trace: CallTrace) => Promise<Envelope | undefined>,
  ): Promise<Envelope> {
    const trace = newCallTrace("approval-resume", "", Date.now(), "approved", approvalId);
    beginCallSpan(this.#settings, context, trace);
    let envelope: Envelope | undefined;
    try {
      envelope = await (trace.span ? withCallSpan(trace.span, () => body(trace)) : body(trace));
    } catch (error) {
      envelope = crashed(context, "", error);
    }
    if (!envelope) {
      // Nothing ran, and the refusal's own event was written where it was decided: the span ends alone.
      const refused = failure("not_authorized", `approval ${approvalId} was not run`);
      recordCallTelemetry(context, trace, refused);
      return refused;
    }
    const recorded = recordCall(this.#settings, context, trace, envelope);
    if (recorded) await recorded;
    return envelope;
  }

  /** Steps 1–3 of a call. Synchronous as long as every step is; a step that is not continues as a promise. */
  #call(
    context: ExecutionContext,
    name: string,
    rawInput: unknown,
    options: CallOptions,
    trace: CallTrace,
    now: number,
  ): Envelope | Promise<Envelope> {
    const settings = this.#settings;
    if (context.mode === "disabled") {
      return failure("not_authorized", "this assistant is disabled and can call no tool");
    }
    // 1–2. Resolve among the tools this caller can see: toolset, then authorization.
    const tool = typeof name === "string" ? settings.registry.get(name) : undefined;
    if (!tool || !isVisible(settings, context, tool)) return this.#unknownTool(context, printableName(name));
    trace.tool = tool;

    // 3. Validate: all input is hostile.
    const raw = rawInput === undefined ? {} : rawInput;
    const input = validateInput(tool, raw);
    if (input instanceof Promise) {
      return input.then((settled) =>
        this.#afterValidation(context, tool, raw, settled, options, trace, settings.now()),
      );
    }
    return this.#afterValidation(context, tool, raw, input, options, trace, now);
  }

  /** Step 4, preconditions, which are asynchronous when a tool has any. */
  #afterValidation(
    context: ExecutionContext,
    tool: AnyTool,
    raw: unknown,
    input: Validated,
    options: CallOptions,
    trace: CallTrace,
    now: number,
  ): Envelope | Promise<Envelope> {
    if (!input.ok) return input.envelope;
    if (tool.requires.length === 0) return this.#admit(context, tool, raw, input.value, options, trace, now);
    return unmetPrecondition(tool, context).then(
      (unmet) => unmet ?? this.#admit(context, tool, raw, input.value, options, trace, this.#settings.now()),
    );
  }

  /** Step 5: ceilings (asynchronous only when configured, so an unlimited call stays on the fast path). */
  #admit(
    context: ExecutionContext,
    tool: AnyTool,
    raw: unknown,
    input: unknown,
    options: CallOptions,
    trace: CallTrace,
    now: number,
  ): Envelope | Promise<Envelope> {
    const settings = this.#settings;
    // 5. Ceilings, beside authorization, so a scheduled job is bound exactly as a chat is.
    if (!settings.ceilings) return this.#afterCeilings(context, tool, raw, input, options, trace, now);
    const { tenantId, principalId } = context;
    const taken = settings.ceilings.take({
      tenantId,
      principalId,
      toolName: tool.name,
      effect: tool.effect,
      now,
    });
    return taken.then((ceiling) => {
      if (ceiling.allowed)
        return this.#afterCeilings(context, tool, raw, input, options, trace, settings.now());
      const reason =
        "unavailable" in ceiling
          ? `was not run: ${ceiling.unavailable}`
          : `is over its limit (${ceiling.limit})`;
      return failure("rate_limited", `${tool.name} ${reason}; wait and retry`, {
        retryAfterMs: ceiling.retryAfterMs,
      });
    });
  }

  /** Steps 5¼–7: the audit trail's admission, credentials, approval, then the keyed runner runs it. */
  #afterCeilings(
    context: ExecutionContext,
    tool: AnyTool,
    raw: unknown,
    input: unknown,
    options: CallOptions,
    trace: CallTrace,
    now: number,
  ): Envelope | Promise<Envelope> {
    const settings = this.#settings;
    if (!changesData(tool.effect)) return this.#credentials(context, tool, raw, input, options, trace, now);
    if (this.#runner.stopping) return shuttingDown(tool.name);
    // Nothing that changes data goes unrecorded: while the audit trail cannot be written, the deployment
    // refuses such calls (the default) or runs them with an alert.
    const held = settings.audit.admit(tool.name);
    if (held) {
      return held.then(
        (refusal) => refusal ?? this.#credentials(context, tool, raw, input, options, trace, settings.now()),
      );
    }
    return this.#credentials(context, tool, raw, input, options, trace, now);
  }

  /**
   * Step 5½: a tool that reaches a vendor account needs its credential usable first, or its user's consent:
   * before approval, so a human approves a call that can run, and before its key is claimed.
   */
  #credentials(
    context: ExecutionContext,
    tool: AnyTool,
    raw: unknown,
    input: unknown,
    options: CallOptions,
    trace: CallTrace,
    now: number,
  ): Envelope | Promise<Envelope> {
    const need = this.#consent ? credentialNeedOf(tool) : undefined;
    if (!need || !this.#consent) return this.#approve(context, tool, raw, input, options, trace, now);
    return this.#consent
      .gate(context, tool, raw, need, trace)
      .then(
        (stopped) =>
          stopped ?? this.#approve(context, tool, raw, input, options, trace, this.#settings.now()),
      );
  }

  /**
   * Step 6: approval; a gated assistant parks whatever changes data. `keyed`: a call resumed after consent
   * runs under its key whatever the tool, so it runs once however often it is resumed.
   */
  #approve(
    context: ExecutionContext,
    tool: AnyTool,
    raw: unknown,
    input: unknown,
    options: CallOptions,
    trace: CallTrace,
    now: number,
    keyed = false,
  ): Envelope | Promise<Envelope> {
    const settings = this.#settings;
    const approval: Approval =
      context.mode === "gated" && changesData(tool.effect) ? "always" : tool.approval;
    trace.approval = approval;
    if (approval === "always") return this.#desk.park(context, tool, raw, input, trace);
    if (approval === "policy") {
      return Promise.resolve(settings.policy.decide({ context, tool, input })).then((decision) => {
        trace.approval = `policy:${decision.decision}`;
        if (decision.decision === "deny")
          return failure("approval_denied", `policy refused ${tool.name}: ${decision.reason}`);
        if (decision.decision === "ask") return this.#desk.park(context, tool, raw, input, trace);
        return this.#run(context, tool, input, options, trace, settings.now(), keyed);
      });
    }
    return this.#run(context, tool, input, options, trace, now, keyed);
  }

  /** 7–9. Idempotency, run, envelope. */
  #run(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    options: CallOptions,
    trace: CallTrace,
    now: number,
    keyed = false,
  ): Envelope | Promise<Envelope> {
    if (!tool.idempotencyKey && !keyed) {
      // A tool that calls another through the seam (execute_tool) hands on its caller's key, so the call
      // it makes is keyed exactly as the same call made directly would be.
      const key = tool.delegatesTo ? context.idempotencyKey : undefined;
      return this.#runner.perform(context, tool, input, key, undefined, now);
    }
    return this.#runner
      .run({ context, tool, input, key: idempotencyKeyFor(context), options, trace })
      .then((outcome) => outcome.envelope);
  }

  #unknownTool(context: ExecutionContext, name: string): Envelope {
    const nearest = nearestNames(
      name,
      this.visibleTools(context).map((tool) => tool.name),
    );
    const hint = nearest.length > 0 ? ` Did you mean ${nearest.join(", ")}?` : "";
    return failure("unknown_tool", `no tool named "${name.slice(0, 100)}" is available to you.${hint}`, {
      details: { nearest },
    });
  }
}

/** What becomes of a stopped call's key: unknown for good, or left to lapse for a provider that deduplicates. */
function stoppedClaim(call: RunningCall): string {
  if (!call.claim) return "";
  return reclaimable(call.tool)
    ? "; its provider deduplicates on its key, so a retry with the key runs it again"
    : " and it will not run again under its key";
}

/** A decision whose store failed under it: nothing was decided, and the approver is told to try again. */
async function decided(
  request: DecisionRequest,
  decide: () => Promise<DecisionResult>,
): Promise<DecisionResult> {
  try {
    return await decide();
  } catch (error) {
    return storeUnavailable(request, error);
  }
}

function storeUnavailable(request: DecisionRequest, error?: unknown): DecisionResult {
  const why = error === undefined ? "" : ` (${describeThrown(error)})`;
  return {
    ok: false,
    reason: "store_unavailable",
    message: `approval ${request.approvalId} was not decided: toolreg's state store failed${why}; retry later`,
  };
}

function crashed(context: ExecutionContext, name: string, error: unknown): Envelope {
  try {
    context.logger.error({ err: error, tool: name }, "seam step failed");
  } catch {
    // A host logger that throws loses the log line, not the answer.
  }
  return failure("internal", `toolreg failed while handling ${name || "the call"}: ${describeThrown(error)}`);
}

/** Creates the seam over a registry view and stores. */
export function createSeam(options: SeamOptions): Seam {
  return new Seam(options);
}
