/** @module Whether the app approved a tool call, read from the AI SDK message history the call runs with. */
import type { ModelMessage } from "ai";

/**
 * True when the history holds the SDK's approval request for `toolCallId` and the app's approving answer
 * to it. The SDK runs an approved call from the messages it was given, in whichever process that is, so
 * the history is where the yes lives; a host that takes the history from a client sets the SDK's
 * `experimental_toolApprovalSecret`, which makes the SDK refuse a forged request before anything runs.
 */
export function approvedInMessages(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const requested = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "tool-approval-request" && part.toolCallId === toolCallId)
        requested.add(part.approvalId);
    }
  }
  if (requested.size === 0) return false;
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-approval-response" && requested.has(part.approvalId)) return part.approved;
    }
  }
  return false;
}
