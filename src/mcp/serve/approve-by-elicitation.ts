/**
 * @module A parked call put to the person at the MCP client, where the client can be asked
 * (`elicitation/create`): accept approves it as the caller and runs it, decline denies it, and anything
 * else (cancel, no answer, a client that fails) leaves it pending under its approval id.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { ExecutionContext } from "../../seam/context.js";
import { describeCall } from "../../seam/describe-call.js";
import { type Envelope, failure } from "../../seam/envelope.js";
import type { Seam } from "../../seam/seam.js";

/** How long a person has to answer; the client's own timeout on the `tools/call` may be shorter. */
export const APPROVAL_ELICITATION_TIMEOUT_MS = 10 * 60_000;

export interface ParkedCall {
  name: string;
  input: unknown;
  approvalId: string;
  /** The parked envelope, returned as it is when nobody decides. */
  envelope: Envelope;
}

/** Whether the client said, at `initialize`, that it can show its user a form. */
export function canElicit(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation?.form !== undefined;
}

/** Asks the client's user about a parked call, within the `tools/call` request it was parked by. */
export async function approveByElicitation(
  server: Server,
  seam: Seam,
  context: ExecutionContext,
  parked: ParkedCall,
  request: { requestId: RequestId; signal: AbortSignal },
): Promise<Envelope> {
  const { name, input, approvalId } = parked;
  const tool = seam.registry.get(name);
  const call = tool ? describeCall(tool, input) : name;
  try {
    const answer = await server.elicitInput(
      {
        mode: "form",
        message: `${call}\n\nApprove this call? Accept runs it now, decline refuses it. (toolreg approval ${approvalId})`,
        requestedSchema: {
          type: "object",
          properties: {
            note: { type: "string", title: "Note", description: "Kept with the decision (optional)" },
          },
        },
      },
      {
        relatedRequestId: request.requestId,
        signal: request.signal,
        timeout: APPROVAL_ELICITATION_TIMEOUT_MS,
      },
    );
    if (answer.action === "cancel") return parked.envelope;
    const note = typeof answer.content?.note === "string" && answer.content.note ? answer.content.note : "";
    const decision = {
      tenantId: context.tenantId,
      approvalId,
      by: context.principalId,
      ...(note ? { note } : {}),
    };
    if (answer.action === "accept") {
      // Decided meanwhile by someone else (the console): resume says what became of it either way.
      await seam.approve(decision);
      return await seam.resume(context, approvalId);
    }
    const denied = await seam.deny(decision);
    if (!denied.ok) return await seam.resume(context, approvalId);
    return failure(
      "approval_denied",
      `${name} was declined by ${context.principalId}; approval ${approvalId} is denied and the call did not run`,
    );
  } catch (error) {
    context.logger.warn({ err: error, approvalId, tool: name }, "no decision from the client; left pending");
    return parked.envelope;
  }
}
