/**
 * @module Steps 7–9: claim the idempotency key, run under it, store the result; and the run itself with
 * the output guardrails. A key is claimed before the side effect, and every claimed call stores a result,
 * or leaves its claim to be found lost: a lost outcome is `unknown`, never a silent second run.
 */
import { changesData } from "../declaration/effect.js";
import type { LostCallEvidence } from "../ports/stores.js";
import type { AnyTool } from "../registry/registry.js";
import { unstartable } from "./call-checks.js";
import { callRecordEvent } from "./call-record.js";
import type { CallTrace } from "./call-trace.js";
import { ClaimHeartbeat, leaseEnd } from "./claim-heartbeat.js";
import type { ExecutionContext } from "./context.js";
import { type Envelope, failure } from "./envelope.js";
import { newEventId } from "./event-id.js";
import { fingerprintOf, storableInput } from "./idempotency-key.js";
import { perform } from "./perform.js";
import { type RunningCall, RunningCalls } from "./running-calls.js";
import type { CallOptions, SeamSettings } from "./seam-settings.js";
import { spillCutOutput } from "./spill-output.js";
import { storeFailure } from "./store-failure.js";
import { describeThrown } from "./to-envelope.js";

/**
 * Whether a run's result reached the store: at once, later (the store refused it at first and took it on a
 * later offer), or never, because another claim took the key meanwhile.
 */
export type Stored = "yes" | "later" | "lost";

/** What became of a keyed call: run here (and whether its result was stored), replayed, lost, or not run. */
export type KeyedOutcome =
  | { kind: "ran"; envelope: Envelope; stored: Stored }
  | { kind: "replayed"; envelope: Envelope }
  | { kind: "unknown"; envelope: Envelope; evidence: LostCallEvidence }
  | { kind: "not_run"; envelope: Envelope };

/** One call under a key, as the seam or the approval desk asks for it. */
export interface KeyedRun {
  context: ExecutionContext;
  tool: AnyTool;
  input: unknown;
  key: string;
  approvalId?: string | undefined;
  options: CallOptions;
  trace: CallTrace;
  /** An operator's retry: an unknown outcome, or a lapsed claim, may be claimed and run again. */
  retryUnknown?: boolean;
  /**
   * Asked once the key is claimed and before the tool runs, so nothing that changed meanwhile is run on
   * a stale decision: an envelope here is the answer instead, and the claim is released — given back as
   * unknown for a retry, or completed with that envelope.
   */
  admit?: () => Promise<Envelope | undefined>;
  /** Told when a result the store refused at first is taken on a later offer. */
  onLateStore?: (envelope: Envelope) => void;
}

/**
 * How long one wait for a store's settled notice lasts before the claim is asked again: a safety net
 * for a notice lost with a dropped connection, and for a lease that lapses without one.
 */
const SETTLED_WAIT_MS = 1_000;

/** How long a result that could not be stored is offered to the store again, once a second. */
const UNSTORED_RETRY_MS = 10 * 60_000;

/** The answer for a key whose earlier call was lost: what is known, and what the caller can do. */
export function unknownOutcome(toolName: string, key: string, evidence: LostCallEvidence): Envelope {
  return failure(
    "idempotency_conflict",
    `an earlier ${toolName} call with key "${key}" was interrupted and its outcome is unknown; it will not be re-run. Check the target system, then use a new key (or ask an operator to retry it)`,
    { details: { status: "unknown", ...evidence } },
  );
}

/** The answer to a call that changes data, arriving while the process stops: nothing ran, retry shortly. */
export function shuttingDown(toolName: string): Envelope {
  return failure(
    "internal",
    `toolreg is shutting down; ${toolName} was not run. Retry shortly: another instance, or this one restarted, will take it`,
    { retryable: true, retryAfterMs: 1_000, details: { shuttingDown: true } },
  );
}

export class KeyedRunner {
  readonly #settings: SeamSettings;
  /** Calls this process is running, by tenant and key, so local waiters need not poll the store. */
  readonly #inflight = new Map<string, Promise<KeyedOutcome>>();
  /** Data-changing calls running here: what a shutdown waits for, and the claims the heartbeat renews. */
  readonly running = new RunningCalls();
  readonly #heartbeat: ClaimHeartbeat;
  /** Results the store refused (a full disk), offered again until it takes them. */
  readonly #unstored = new Set<() => Promise<boolean>>();
  #stopping = false;
  #stopped = false;

  constructor(settings: SeamSettings) {
    this.#settings = settings;
    this.#heartbeat = new ClaimHeartbeat(settings, this.running);
  }

  /** Runs the call under its key: a completed key replays, a key in flight waits or says so, a lost one is unknown. */
  async run(request: KeyedRun): Promise<KeyedOutcome> {
    const { context, tool, input, key, approvalId, options, trace } = request;
    const { stores, now, waitPollMs, leaseGraceMs, retentionMs, holder } = this.#settings;
    trace.idempotencyKey = key;
    const refused = unstartable(context, tool, now());
    if (refused) return { kind: "not_run", envelope: refused };
    const stored = storableInput(input);
    if (!stored.ok) {
      const envelope = failure("invalid_input", `invalid input for ${tool.name}: ${stored.reason}`);
      return { kind: "not_run", envelope };
    }
    const fingerprint = fingerprintOf(context.principalId, tool.name, stored.json);
    const waitUntil = Math.min(
      now() + tool.limits.timeoutMs + leaseGraceMs,
      context.deadline ?? Number.POSITIVE_INFINITY,
    );
    for (;;) {
      if (this.#stopping) return { kind: "not_run", envelope: shuttingDown(tool.name) };
      const claimId = newEventId();
      const at = now();
      // Running from before the claim is asked for: a stop that begins meanwhile waits for it.
      const call = this.#runningCall(context, tool, approvalId, at, false);
      this.running.add(call);
      let claim: Awaited<ReturnType<typeof stores.idempotency.claim>>;
      try {
        claim = await stores.idempotency.claim({
          tenantId: context.tenantId,
          key,
          fingerprint,
          toolName: tool.name,
          claimId,
          principalId: context.principalId,
          holder,
          reclaimable: reclaimable(tool),
          ...(request.retryUnknown ? { retryUnknown: true } : {}),
          now: at,
          leaseMs: leaseEnd(this.#settings, at, call.deadline) - at,
          retentionMs,
        });
      } catch (error) {
        this.running.delete(call);
        return { kind: "not_run", envelope: storeFailure(`claim key "${key}"`, error) };
      }
      if (claim.kind !== "claimed") this.running.delete(call);
      switch (claim.kind) {
        case "claimed":
          call.claim = { key, claimId };
          call.started = true;
          return await this.#runClaimed(call, request);
        case "completed":
          trace.replayed = true;
          return { kind: "replayed", envelope: claim.envelope };
        case "conflict":
          return {
            kind: "not_run",
            envelope: failure(
              "idempotency_conflict",
              `idempotency key "${key}" was already used for another call (other arguments, another tool or another caller); nothing was run. Use a new key for a different call`,
            ),
          };
        case "unknown":
          return {
            kind: "unknown",
            envelope: unknownOutcome(tool.name, key, claim.evidence),
            evidence: claim.evidence,
          };
        case "in_progress": {
          if (options.onInProgress !== "wait" || now() >= waitUntil) {
            const envelope = failure(
              "in_progress",
              `a ${tool.name} call with key "${key}" is still running; retry shortly`,
              { retryAfterMs: waitPollMs * 4 },
            );
            return { kind: "not_run", envelope };
          }
          const local = this.#inflight.get(`${context.tenantId}\u0000${key}`);
          if (local) await local;
          // Woken by the store when the other process's call settles, where it can tell; else a poll.
          else if (stores.idempotency.settled) {
            await stores.idempotency.settled({ tenantId: context.tenantId, key, timeoutMs: SETTLED_WAIT_MS });
          } else await new Promise((resolve) => setTimeout(resolve, waitPollMs));
        }
      }
    }
  }

  /**
   * Steps 8–9: run, envelope, output guardrails. No extra promise when there are no guardrails. A call
   * that changes data without a key is refused once a stop has begun, and tracked from before it starts,
   * so a stop waits for it too.
   */
  perform(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    key: string | undefined,
    approvalId: string | undefined,
    now: number = this.#settings.now(),
  ): Envelope | Promise<Envelope> {
    const tracked = key === undefined && changesData(tool.effect);
    if (tracked && this.#stopping) return shuttingDown(tool.name);
    const call = tracked ? this.#runningCall(context, tool, approvalId, now, true) : undefined;
    if (call) this.running.add(call);
    let result: Envelope | Promise<Envelope>;
    try {
      const performed = perform({
        tool,
        context,
        input,
        idempotencyKey: key,
        approvalId,
        now,
        realClock: this.#settings.realClock,
      });
      const { outputs, guardrails } = this.#settings;
      const kept = outputs ? spillCutOutput(outputs, context, tool, performed) : performed;
      result = guardrails.length === 0 ? kept : this.#guard(context, tool, input, kept);
    } catch (error) {
      if (call) this.running.delete(call);
      throw error;
    }
    if (!call) return result;
    if (!(result instanceof Promise)) {
      this.running.delete(call);
      return result;
    }
    return result.finally(() => this.running.delete(call));
  }

  /**
   * The calls still running as the process stops. Each claim is given up as unknown — unless the tool's
   * provider deduplicates on the key, whose claim is left to lapse so that a retry runs it again, as
   * after a crash. Completions that arrive later still store the real outcome, until `stop`.
   */
  async abandonRunning(): Promise<{ call: RunningCall; abandoned: boolean }[]> {
    const { stores, now } = this.#settings;
    // A call still asking for its claim has not started, and cannot once the stop has begun.
    const calls = [...this.running].filter((call) => call.started);
    return Promise.all(
      calls.map(async (call) => {
        if (!call.claim || reclaimable(call.tool)) return { call, abandoned: false };
        try {
          const abandoned = await stores.idempotency.abandon({
            tenantId: call.context.tenantId,
            ...call.claim,
            now: now(),
          });
          return { call, abandoned };
        } catch (error) {
          call.context.logger.error(
            { err: error, tool: call.tool.name },
            "could not record a call as unknown",
          );
          return { call, abandoned: false };
        }
      }),
    );
  }

  /** From now on no call that changes data starts here: the process is stopping. */
  beginStop(): void {
    this.#stopping = true;
  }

  /** Whether a stop has begun: calls that change data are refused, to be retried elsewhere or later. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Whether `stop` has run: the stores may be closed, and nothing more is written to them. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** No more store writes from calls that finish after this: the stores are about to close. */
  async stop(): Promise<void> {
    this.#heartbeat.stop();
    // One last offer of each unstored result, while the store is still open.
    await Promise.all([...this.#unstored].map((store) => store().catch(() => false)));
    this.#stopped = true;
  }

  async #guard(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    performed: Envelope | Promise<Envelope>,
  ): Promise<Envelope> {
    const envelope = await performed;
    for (const guardrail of this.#settings.guardrails) {
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

  #runningCall(
    context: ExecutionContext,
    tool: AnyTool,
    approvalId: string | undefined,
    startedAt: number,
    started: boolean,
  ): RunningCall {
    const deadline = Math.min(
      startedAt + tool.limits.timeoutMs,
      context.deadline ?? Number.POSITIVE_INFINITY,
    );
    return {
      context,
      tool,
      claim: undefined,
      started,
      approvalId,
      startedAt,
      deadline,
      heartbeatAt: startedAt,
    };
  }

  async #runClaimed(call: RunningCall, request: KeyedRun): Promise<KeyedOutcome> {
    const { context, tool, approvalId } = call;
    const { key, claimId } = call.claim as { key: string; claimId: string };
    const inflightKey = `${context.tenantId}\u0000${key}`;
    this.#heartbeat.ensureBeating();
    const running = (async (): Promise<KeyedOutcome> => {
      try {
        const held = await this.#admitted(request, claimId);
        if (held) return { kind: "not_run", envelope: held };
        let envelope: Envelope;
        try {
          envelope = await this.perform(context, tool, request.input, key, approvalId);
        } catch (error) {
          // Whatever happens after the claim, a result is stored: a claim left in flight would be found
          // lost, and its outcome unknown, when it is known here.
          envelope = failure(
            "internal",
            `${tool.name} failed after it was claimed: ${describeThrown(error)}`,
          );
        }
        return { kind: "ran", envelope, stored: await this.#complete(request, claimId, envelope) };
      } finally {
        // Running until its result is stored (or offered to a failing store): a stop waits for that too.
        this.running.delete(call);
      }
    })();
    this.#inflight.set(inflightKey, running);
    try {
      return await running;
    } finally {
      // A later claim of the key in this process may have taken the entry; only ours is removed.
      if (this.#inflight.get(inflightKey) === running) this.#inflight.delete(inflightKey);
    }
  }

  /** The run's last check before the tool starts; a refusal releases the claim. */
  async #admitted(request: KeyedRun, claimId: string): Promise<Envelope | undefined> {
    let held: Envelope | undefined;
    try {
      held = await request.admit?.();
    } catch (error) {
      held = storeFailure(`check ${request.tool.name} before it ran`, error);
    }
    if (!held) return undefined;
    const { stores, now, retentionMs } = this.#settings;
    const ref = { tenantId: request.context.tenantId, key: request.key, claimId, now: now() };
    try {
      // A retry gives the unknown outcome back as it found it; otherwise the refusal is this key's outcome.
      if (request.retryUnknown) await stores.idempotency.abandon(ref);
      else await stores.idempotency.complete({ ...ref, envelope: held, retentionMs });
    } catch (error) {
      request.context.logger.error({ err: error, tool: request.tool.name }, "could not release a claim");
    }
    return held;
  }

  /**
   * Stores the result under the claim. A store that fails (a full disk) does not turn what ran into a
   * failure: the caller gets the real result, and the result is offered again each second until the
   * store takes it (then `onLateStore` hears of it). Meanwhile the claim's lease lapses unrenewed: a retry
   * finds the call unknown (or, for a tool whose provider deduplicates on the key, runs it again), and
   * the late result, once stored, replaces the unknown.
   */
  async #complete(request: KeyedRun, claimId: string, envelope: Envelope): Promise<Stored> {
    const { context, tool, key, trace } = request;
    const settings = this.#settings;
    const { stores, now, retentionMs } = settings;
    // Where the store can, the call's audit event goes in with its completion: no stored side effect is
    // ever without its event. A late offer (below) goes without it: the call was recorded the usual way.
    let audit =
      stores.idempotency.completionAudit === stores.audit
        ? callRecordEvent(settings, context, trace, envelope)
        : undefined;
    const store = async (): Promise<boolean> => {
      if (this.#stopped) return false;
      const completed = await stores.idempotency.complete({
        tenantId: context.tenantId,
        key,
        claimId,
        envelope,
        now: now(),
        retentionMs,
        ...(audit ? { audit } : {}),
      });
      if (completed && audit) {
        trace.audited = true;
        settings.audit.announce(audit);
      }
      if (!completed)
        context.logger.warn({ tool: tool.name, key }, "idempotency claim lost before completion");
      return completed;
    };
    try {
      return (await store()) ? "yes" : "lost";
    } catch (error) {
      audit = undefined;
      context.logger.error(
        { err: error, tool: tool.name, key },
        "the result of a call that ran could not be stored; it is offered again each second",
      );
      this.#keepOffering(store, request, envelope);
      return "later";
    }
  }

  #keepOffering(store: () => Promise<boolean>, request: KeyedRun, envelope: Envelope): void {
    const giveUpAt = Date.now() + UNSTORED_RETRY_MS;
    const offer = async (): Promise<boolean> => {
      const taken = await store();
      this.#unstored.delete(offer);
      if (taken) request.onLateStore?.(envelope);
      return taken;
    };
    this.#unstored.add(offer);
    const attempt = () => {
      // After `stop`, which made the last offer itself; or once another offer settled it.
      if (this.#stopped || !this.#unstored.has(offer)) return;
      offer().catch((error: unknown) => {
        if (Date.now() < giveUpAt) {
          setTimeout(attempt, 1_000).unref();
          return;
        }
        this.#unstored.delete(offer);
        request.context.logger.error(
          { err: error, tool: request.tool.name },
          "gave up storing a call's result",
        );
      });
    };
    setTimeout(attempt, 1_000).unref();
  }
}

/** A lost run is taken over only where repeating it cannot repeat its effect. */
export function reclaimable(tool: AnyTool): boolean {
  return !changesData(tool.effect) || tool.upstreamDeduplicates;
}
