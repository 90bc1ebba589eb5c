/**
 * @module Steps 7–9: claim the idempotency key, run under it, store the result; and the run itself with
 * the output guardrails. A key is claimed before the side effect, and every claimed call stores a result.
 */
import type { AnyTool } from "../registry/registry.js";
import { unstartable } from "./call-checks.js";
import type { CallTrace } from "./call-trace.js";
import type { ExecutionContext } from "./context.js";
import { type Envelope, failure } from "./envelope.js";
import { newEventId } from "./event-id.js";
import { fingerprintOf, storableInput } from "./idempotency-key.js";
import { perform } from "./perform.js";
import type { CallOptions, SeamSettings } from "./seam-settings.js";
import { spillCutOutput } from "./spill-output.js";
import { describeThrown } from "./to-envelope.js";

export class KeyedRunner {
  readonly #settings: SeamSettings;
  /** Calls this process is running, by tenant and key, so local waiters need not poll the store. */
  readonly #inflight = new Map<string, Promise<Envelope>>();

  constructor(settings: SeamSettings) {
    this.#settings = settings;
  }

  /** Runs the call, under `key` when there is one: a completed key replays, a key in flight waits or says so. */
  async run(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    key: string | undefined,
    approvalId: string | undefined,
    options: CallOptions,
    trace: CallTrace,
  ): Promise<Envelope> {
    if (key === undefined) return await this.perform(context, tool, input, undefined, approvalId);
    const { stores, now, leaseGraceMs, retentionMs, waitPollMs } = this.#settings;
    trace.idempotencyKey = key;
    const refused = unstartable(context, tool, now());
    if (refused) return refused;
    const stored = storableInput(input);
    if (!stored.ok) return failure("invalid_input", `invalid input for ${tool.name}: ${stored.reason}`);
    const fingerprint = fingerprintOf(context.principalId, tool.name, stored.json);
    const leaseMs = tool.limits.timeoutMs + leaseGraceMs;
    const waitUntil = now() + Math.min(leaseMs, (context.deadline ?? Number.POSITIVE_INFINITY) - now());
    for (;;) {
      const claimId = newEventId();
      const claim = await stores.idempotency.claim({
        tenantId: context.tenantId,
        key,
        fingerprint,
        toolName: tool.name,
        claimId,
        reclaimable: tool.effect !== "destructive",
        now: now(),
        leaseMs,
        retentionMs,
      });
      switch (claim.kind) {
        case "claimed":
          return await this.#runClaimed(context, tool, input, key, claimId, approvalId);
        case "completed":
          trace.replayed = true;
          return claim.envelope;
        case "conflict":
          return failure(
            "idempotency_conflict",
            `idempotency key "${key}" was already used for another call (other arguments, another tool or another caller); nothing was run. Use a new key for a different call`,
          );
        case "unknown":
          return failure(
            "idempotency_conflict",
            `an earlier ${tool.name} call with key "${key}" was interrupted and its outcome is unknown; it will not be re-run. Check the target system, then use a new key`,
            { details: { status: "unknown", since: claim.since } },
          );
        case "in_progress": {
          if (options.onInProgress !== "wait" || now() >= waitUntil) {
            return failure(
              "in_progress",
              `a ${tool.name} call with key "${key}" is still running; retry shortly`,
              {
                retryAfterMs: waitPollMs * 4,
              },
            );
          }
          const local = this.#inflight.get(`${context.tenantId}\u0000${key}`);
          if (local) await local;
          else await new Promise((resolve) => setTimeout(resolve, waitPollMs));
        }
      }
    }
  }

  /** Steps 8–9: run, envelope, output guardrails. No extra promise when there are no guardrails. */
  perform(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    key: string | undefined,
    approvalId: string | undefined,
    now: number = this.#settings.now(),
  ): Envelope | Promise<Envelope> {
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
    return guardrails.length === 0 ? kept : this.#guard(context, tool, input, kept);
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

  async #runClaimed(
    context: ExecutionContext,
    tool: AnyTool,
    input: unknown,
    key: string,
    claimId: string,
    approvalId: string | undefined,
  ): Promise<Envelope> {
    const { stores, now, retentionMs } = this.#settings;
    const inflightKey = `${context.tenantId}\u0000${key}`;
    const running = (async () => {
      let envelope: Envelope;
      try {
        envelope = await this.perform(context, tool, input, key, approvalId);
      } catch (error) {
        // Whatever happens after the claim, a result is stored: a claim left in flight would let an
        // external write run again once its lease ran out.
        envelope = failure("internal", `${tool.name} failed after it was claimed: ${describeThrown(error)}`);
      }
      const completed = await stores.idempotency.complete({
        tenantId: context.tenantId,
        key,
        claimId,
        envelope,
        now: now(),
        retentionMs,
      });
      if (!completed)
        context.logger.warn({ tool: tool.name, key }, "idempotency lease lost before completion");
      return envelope;
    })();
    this.#inflight.set(inflightKey, running);
    try {
      return await running;
    } finally {
      this.#inflight.delete(inflightKey);
    }
  }
}
