/** @module Whether the app approved a tool call, read from the AI SDK message history the call runs with. */
import type { ModelMessage } from "ai";

/**
 * True when the history ends as the SDK runs an approved call from it: the last message is the app's
 * answer (a tool message) whose first response to an approval request the SDK made for `toolCallId`
 * approves it. The SDK runs such a call in whichever process is handed the history, so the history is
 * where the yes lives. Only the last message counts, as for the SDK: a yes left earlier in the history
 * approved some earlier run, not this one. A request the SDK answered itself (`isAutomatic`, ai 7's
 * `toolApproval`) is the app's code, not a person, so it approves nothing here and the call parks in
 * toolreg. A host that takes the history from a client sets the SDK's `experimental_toolApprovalSecret`,
 * which makes the SDK refuse a forged request before anything runs.
 */
export function approvedInMessages(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const answer = messages.at(-1);
  if (answer?.role !== "tool") return false;
  const asked = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "tool-approval-request" && part.toolCallId === toolCallId && !isAutomatic(part)) {
        asked.add(part.approvalId);
      }
    }
  }
  for (const part of answer.content) {
    if (part.type === "tool-approval-response" && asked.has(part.approvalId)) return part.approved;
  }
  return false;
}

/** ai 7 marks the requests it answered itself; ai 6 has no such requests (and no such field). */
function isAutomatic(request: object): boolean {
  return "isAutomatic" in request && request.isAutomatic === true;
}
