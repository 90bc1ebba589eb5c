/**
 * @module What every framework adapter shares: the tools a caller may see, and a call through the seam
 * that, when the framework's own approval flow has already said yes, records that yes and resumes.
 */
import type { AnyTool } from "../registry/registry.js";
import type { ExecutionContext } from "../seam/context.js";
import { approvalIdOf, type Envelope, failure } from "../seam/envelope.js";
import type { Seam } from "../seam/seam.js";

export interface SeamAdapterOptions {
  seam: Seam;
  /**
   * Builds the host's context for one call, from the framework's tool-call id (a fresh one when the
   * framework gives none). Tenant, principal, scopes and mode come from the host, never from the model.
   */
  context(toolCallId: string): ExecutionContext;
  /**
   * Recorded as the approver when the framework's approval flow approves a call (AI SDK and OpenAI Agents
   * `needsApproval`). Without it such a call stays parked and the model is told so.
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
 * Calls through the seam. `approvedByFramework` says the framework ran its own approval flow for this
 * very call and the human said yes: the parked call is then approved as `approver` and resumed once.
 */
export async function callThroughSeam(
  options: SeamAdapterOptions,
  name: string,
  input: unknown,
  toolCallId: string,
  approvedByFramework = false,
): Promise<Envelope> {
  const context = options.context(toolCallId);
  const envelope = await options.seam.call(context, name, input);
  const approvalId = approvalIdOf(envelope);
  if (!approvalId || !approvedByFramework || options.approver === undefined) return envelope;
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
  return options.seam.resume(context, approvalId, { onInProgress: "wait" });
}
