import { describe, expect, it } from "vitest";
import {
  expectApprovedOnceBy,
  recordedApprovals,
  runStepProcess,
  stateDirs,
} from "../../../test/support/cross-process-steps.js";
import { sentEmails } from "../../../test/support/durable-adapter-harness.js";

interface StepReport {
  interrupts: { actionRequests: { name: string; args: unknown }[] }[];
  toolMessages: { toolCallId: string; status: string; content: string }[];
  reply: string;
}

/** Runs one step of the run in a fresh Node process over `dir`, and reads its report. */
const runStep = (dir: string, step: "start" | "approve" | "reject") =>
  runStepProcess<StepReport>("langchain-approval-process.ts", [dir, step]);

const stateDir = stateDirs("toolreg-langchain-");

describe("a LangChain agent's approval across processes", () => {
  it("interrupted in one process and approved in another, the call runs once, approved in toolreg as the approver, from what the checkpoint kept; resuming again sends nothing more", async () => {
    const dir = stateDir();
    const started = await runStep(dir, "start");
    expect(started.interrupts).toMatchObject([
      { actionRequests: [{ name: "send_email", args: { to: "bob@example.com" } }] },
    ]);
    expect(started.toolMessages).toEqual([]);
    expect(sentEmails(dir)).toEqual([]);
    // Asking the agent's human parks nothing in toolreg: the decision is the framework's until it comes back.
    expect((await recordedApprovals(dir)).approvals).toEqual([]);

    const approved = await runStep(dir, "approve");
    expect(approved).toEqual({
      interrupts: [],
      toolMessages: [{ toolCallId: "call_1", status: "success", content: "sent" }],
      reply: "done",
    });
    expect(sentEmails(dir)).toEqual([{ to: "bob@example.com" }]);
    await expectApprovedOnceBy(dir, "alice", "call_1");

    // The same resume sent again (a retried worker, say): the thread has moved past the interrupt.
    const again = await runStep(dir, "approve");
    expect(again.toolMessages).toEqual(approved.toolMessages);
    expect(sentEmails(dir)).toHaveLength(1);
    await expectApprovedOnceBy(dir, "alice", "call_1");
  }, 150_000);

  it("rejected in another process, nothing is sent and toolreg records nothing", async () => {
    const dir = stateDir();
    await runStep(dir, "start");

    const rejected = await runStep(dir, "reject");
    expect(rejected.interrupts).toEqual([]);
    expect(rejected.toolMessages).toMatchObject([{ toolCallId: "call_1", status: "error" }]);
    expect(rejected.toolMessages[0]?.content).toMatch(/rejected/);
    expect(sentEmails(dir)).toEqual([]);
    expect(await recordedApprovals(dir)).toEqual({ approvals: [], decisions: [] });
  }, 90_000);
});
