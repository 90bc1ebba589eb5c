/** @module An envelope as the ToolMessage that answers a LangChain tool call. */
import { ToolMessage } from "@langchain/core/messages";
import { type Envelope, envelopeText } from "../../seam/envelope.js";

/**
 * The model reads the envelope's text; the status says whether it is an error, so the model (and a
 * provider that has the notion) treats it as one; the envelope itself travels as the artifact, which the
 * app keeps and the model never sees: its data, or a parked call's approval id (`approvalIdOf`).
 */
export function envelopeToolMessage(envelope: Envelope, toolCallId: string, toolName?: string): ToolMessage {
  return new ToolMessage({
    content: envelopeText(envelope),
    tool_call_id: toolCallId,
    status: envelope.ok ? "success" : "error",
    artifact: envelope,
    ...(toolName === undefined ? {} : { name: toolName }),
  });
}
