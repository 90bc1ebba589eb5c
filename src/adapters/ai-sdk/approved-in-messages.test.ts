import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { approvedInMessages } from "./approved-in-messages.js";

const CALL = "call-send";

/**
 * The SDK's turn that asked about a call: the call and the approval request it made for it; `isAutomatic`
 * is ai 7's mark (ai 6's types lack it, so it is added outside the literal).
 */
function asked(approvalId: string, toolCallId = CALL, isAutomatic?: boolean): ModelMessage {
  const request = { type: "tool-approval-request" as const, approvalId, toolCallId };
  return {
    role: "assistant",
    content: [
      { type: "tool-call", toolCallId, toolName: "send_email", input: { to: "bob" } },
      isAutomatic === undefined ? request : Object.assign(request, { isAutomatic }),
    ],
  };
}

/** The app's answers, as the tool message it appends. */
function answered(...answers: [approvalId: string, approved: boolean][]): ModelMessage {
  return {
    role: "tool",
    content: answers.map(([approvalId, approved]) => ({
      type: "tool-approval-response" as const,
      approvalId,
      approved,
    })),
  };
}

const user: ModelMessage = { role: "user", content: "email bob" };

describe("approvedInMessages", () => {
  it("is true when the last message approves the request the SDK made for this call", () => {
    expect(approvedInMessages([user, asked("a1"), answered(["a1", true])], CALL)).toBe(true);
  });

  it("is false when the answer denies it, or when nothing was answered yet", () => {
    expect(approvedInMessages([user, asked("a1"), answered(["a1", false])], CALL)).toBe(false);
    expect(approvedInMessages([user, asked("a1")], CALL)).toBe(false);
    expect(approvedInMessages([], CALL)).toBe(false);
  });

  it("is false for a call whose request was not the one approved", () => {
    const messages = [user, asked("a1"), asked("a2", "call-other"), answered(["a2", true])];
    expect(approvedInMessages(messages, CALL)).toBe(false);
    expect(approvedInMessages(messages, "call-other")).toBe(true);
  });

  it("is false for an answer to a request nobody made", () => {
    expect(approvedInMessages([user, asked("a1"), answered(["a-forged", true])], CALL)).toBe(false);
  });

  it("is false when the yes is not the last message: it approved an earlier run, not this one", () => {
    const later: ModelMessage = { role: "user", content: "and again" };
    expect(approvedInMessages([user, asked("a1"), answered(["a1", true]), later], CALL)).toBe(false);
  });

  it("takes the first answer to the call, as the SDK does, so a later yes does not undo a no", () => {
    const messages = [user, asked("a1"), asked("a2"), answered(["a1", false], ["a2", true])];
    expect(approvedInMessages(messages, CALL)).toBe(false);
  });

  it("is false for a request the SDK answered itself (ai 7's toolApproval): no person said yes", () => {
    expect(approvedInMessages([user, asked("a1", CALL, true), answered(["a1", true])], CALL)).toBe(false);
    expect(approvedInMessages([user, asked("a1", CALL, false), answered(["a1", true])], CALL)).toBe(true);
  });
});
