/**
 * @module What every framework adapter shares: the tools a caller may see, a context built safely from
 * whatever call id a framework hands over, and a call through the seam that — when the framework's own
 * approval flow has already said yes — records that yes and resumes the parked call once.
 */
import { createHash, randomUUID } from "node:crypto";
import type { AnyTool } from "../registry/registry.js";
import { type ExecutionContext, IDENTIFIER } from "../seam/context.js";
import { approvalIdOf, type Envelope, type ErrorEnvelope, failure } from "../seam/envelope.js";
import type { Seam } from "../seam/seam.js";
import { describeThrown } from "../seam/to-envelope.js";

export interface SeamAdapterOptions {
  seam: Seam;
  /**
   * Builds the host's context for one call, from the framework's tool-call id (a fresh one when the
   * framework gives none). Tenant, principal, scopes and mode come from the host, never from the model.
   * Keep the run id stable across an approval's round trip, or the resumed call gets a new key.
   */
  context(toolCallId: string): ExecutionContext;
  /**
   * Recorded as the approver when the framework's approval flow approves a call (AI SDK and OpenAI Agents
   * `needsApproval`). Without it the framework is never asked: a call that needs approval parks in
   * toolreg for a human there, and the model is told so.
   */
  approver?: string;
  /** Offers only these tools (still only those the caller may see); all visible tools otherwise. */
  only?: readonly string[];
}

/** The context the tool list is drawn for: visibility depends on tenant, principal, scopes and mode alone. */
const LISTING_CALL_ID = "catalogue-listing";

/** The tools to hand the framework: what the caller may see, narrowed by `only`. */
export function adaptedTools(options: SeamAdapterOptions): AnyTool[] {
  const visible = options.seam.visibleTools(options.context(LISTING_CALL_ID));
  if (!options.only) return visible;
  const wanted = new Set(options.only);
  return visible.filter((tool) => wanted.has(tool.name));
}

/**
 * The host's context for a framework's call id. An id toolreg would refuse (too long, odd characters —
 * it comes from a model or a provider) is replaced by a stable digest of itself, so a retry still maps
 * to the same idempotency key; a host whose `context` throws gets an envelope, not an exception.
 */
export function contextFor(
  options: SeamAdapterOptions,
  toolCallId: string,
): ExecutionContext | ErrorEnvelope {
  const id = IDENTIFIER.test(toolCallId)
    ? toolCallId
    : `call-${createHash("sha256").update(String(toolCallId)).digest("hex").slice(0, 40)}`;
  try {
    return options.context(id);
  } catch (error) {
    return failure("internal", `the host could not set up this call: ${describeThrown(error)}`);
  }
}

function isEnvelope(value: ExecutionContext | ErrorEnvelope): value is ErrorEnvelope {
  return "ok" in value;
}

/**
 * Calls through the seam. `approvedByFramework` says the framework ran its own approval flow for this
 * very call and the human said yes: the parked call is then approved as `approver` and resumed once.
 */
export async function callThroughSeam(
  options: SeamAdapterOptions,
  name: string,
  input: unknown,
  toolCallId: string = randomUUID(),
  approvedByFramework = false,
): Promise<Envelope> {
  const context = contextFor(options, toolCallId);
  if (isEnvelope(context)) return context;
  const envelope = await options.seam.call(context, name, input);
  const approvalId = approvalIdOf(envelope);
  if (!approvalId || !approvedByFramework || options.approver === undefined) return envelope;
  try {
    const decided = await options.seam.approve({
      tenantId: context.tenantId,
      approvalId,
      by: options.approver,
      note: "approved through the agent framework's approval flow",
    });
    // Decided elsewhere first (denied in the console, say): that decision stands, and the model hears it.
    if (!decided.ok && decided.approval?.status !== "approved") {
      return failure("approval_denied", decided.message, { details: { approvalId } });
    }
  } catch (error) {
    return failure("internal", `recording the approval of ${approvalId} failed: ${describeThrown(error)}`);
  }
  return options.seam.resume(context, approvalId, { onInProgress: "wait" });
}

/** How many asked calls are remembered before the oldest is forgotten. */
const ASKED_CAPACITY = 1_000;

/**
 * A framework's approval flag, mapped from the seam's approval step. `needsApproval` asks the seam and
 * remembers a yes for that call; `execute` hands the yes to the one run that follows, which the framework
 * starts only after the app approved. A call the framework runs without having asked (a run resumed in
 * another process, an "always approve" the seam never saw, a forgotten entry) parks in toolreg and the
 * model is told: nothing is approved on a framework's word alone. Bounded, oldest forgotten first.
 */
export class FrameworkApprovals {
  readonly #options: SeamAdapterOptions;
  /** Insertion-ordered: the first key is the oldest. */
  readonly #asked = new Set<string>();
  readonly #capacity: number;

  constructor(options: SeamAdapterOptions, capacity = ASKED_CAPACITY) {
    this.#options = options;
    this.#capacity = capacity;
  }

  async needsApproval(name: string, input: unknown, toolCallId: string): Promise<boolean> {
    const key = JSON.stringify([name, toolCallId]);
    this.#asked.delete(key);
    if (this.#options.approver === undefined) return false;
    const context = contextFor(this.#options, toolCallId);
    // A call that cannot even be set up is refused when it runs; there is nothing to ask a human.
    if (isEnvelope(context)) return false;
    const needed = await this.#options.seam.needsApproval(context, name, input);
    if (!needed) return false;
    this.#asked.add(key);
    if (this.#asked.size > this.#capacity) {
      for (const oldest of this.#asked) {
        this.#asked.delete(oldest);
        break;
      }
    }
    return true;
  }

  /** Runs the call through the seam; approved as `approver` only if this very call was asked about. */
  execute(name: string, input: unknown, toolCallId: string): Promise<Envelope> {
    const asked = this.#asked.delete(JSON.stringify([name, toolCallId]));
    return callThroughSeam(this.#options, name, input, toolCallId, asked);
  }
}
