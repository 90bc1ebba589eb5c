/** @module A parked call that a human approved in toolreg, run and answered in a LangChain message loop. */
import type { ToolMessage } from "@langchain/core/messages";
import { contextFor, type SeamAdapterOptions } from "../seam-bridge.js";
import { envelopeToolMessage } from "./envelope-tool-message.js";

/** The parked call: the approval id its ToolMessage's artifact names, and the model's tool-call id. */
export interface ParkedCall {
  approvalId: string;
  toolCallId: string;
}

/**
 * Resumes an approved call once, however often this is called, and answers the model's original tool
 * call. The answer has the parked ToolMessage's `tool_call_id`, so it takes that message's place in the
 * history: providers accept one answer per tool call. Still pending, denied or expired, the call does
 * not run and the error ToolMessage says so.
 */
export async function resumeApproved(options: SeamAdapterOptions, parked: ParkedCall): Promise<ToolMessage> {
  const context = contextFor(options, parked.toolCallId);
  const envelope =
    "ok" in context
      ? context
      : await options.seam.resume(context, parked.approvalId, { onInProgress: "wait" });
  return envelopeToolMessage(envelope, parked.toolCallId);
}
