import { describe, expect, it } from "vitest";
import { runExample, USER_ID } from "./agent.js";
import { ANSWER_DECLINED, ANSWER_WRITTEN, NOTE, SEARCH_QUERY } from "./scripted-model.js";

describe("the AI SDK agent example", () => {
  it("finds the CRM tool, waits for the human's yes, then writes the note once through the seam", async () => {
    const result = await runExample();
    expect(result.toolsCalled).toEqual(["find_tools", "execute_tool"]);
    expect(result.steps).toEqual(
      expect.arrayContaining([
        {
          kind: "tool-call",
          toolCallId: "call-find",
          toolName: "find_tools",
          input: { query: SEARCH_QUERY },
        },
        {
          kind: "tool-result",
          toolCallId: "call-find",
          toolName: "find_tools",
          output: expect.stringMatching(/^- crm_note_write \(external-write, approval always\)/),
        },
        {
          kind: "tool-call",
          toolCallId: "call-execute",
          toolName: "execute_tool",
          input: { name: "crm_note_write", arguments: NOTE },
        },
        { kind: "approval-request", approvalId: expect.any(String), toolCallId: "call-execute" },
        { kind: "approval-response", approvalId: expect.any(String), approved: true },
      ]),
    );
    expect(result.notes).toEqual([NOTE]);
    expect(result.approval).toEqual({ status: "executed", decidedBy: USER_ID });
    // The wrapper and its target are one call in the audit trail, decided and resumed under the same id.
    expect(result.audit.filter((event) => event.toolCallId === "call-execute")).toEqual(
      expect.arrayContaining([
        { kind: "tool-call", tool: "execute_tool", toolCallId: "call-execute", outcome: "approval_required" },
        {
          kind: "tool-call",
          tool: "crm_note_write",
          toolCallId: "call-execute",
          outcome: "approval_required",
        },
        {
          kind: "approval-decision",
          tool: "crm_note_write",
          toolCallId: "call-execute",
          outcome: "approved",
        },
        { kind: "approval-resume", tool: "crm_note_write", toolCallId: "call-execute", outcome: "ok" },
      ]),
    );
    expect(result.finalText).toBe(ANSWER_WRITTEN);
  });

  it("never writes the note when the human says no: the seam never hears of the call", async () => {
    const result = await runExample({ humanApproves: false });
    expect(result.toolsCalled).toEqual(["find_tools", "execute_tool"]);
    expect(result.steps).toContainEqual({
      kind: "tool-result",
      toolCallId: "call-execute",
      toolName: "execute_tool",
      output: "(not run: denied)",
    });
    expect(result.notes).toEqual([]);
    expect(result.approval).toBeUndefined();
    expect(result.audit.map((event) => event.tool)).toEqual(["find_tools"]);
    expect(result.finalText).toBe(ANSWER_DECLINED);
  });
});
