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

/**
 * A framework's approval flag, mapped from the seam's approval step: whether the framework should ask its
 * human before running this call. Only with an approver (whose name records the yes), and only when the
 * seam would park the call. The yes itself is read back from the framework's own saved state when the
 * call runs (each adapter knows where its framework keeps it), so a run saved in one process and approved
 * in another needs nothing held in this one.
 */
export async function frameworkNeedsApproval(
  options: SeamAdapterOptions,
  name: string,
  input: unknown,
  toolCallId: string,
): Promise<boolean> {
  if (options.approver === undefined) return false;
  const context = contextFor(options, toolCallId);
  // A call that cannot even be set up is refused when it runs; there is nothing to ask a human.
  if (isEnvelope(context)) return false;
  return options.seam.needsApproval(context, name, input);
}
