import { describe, expect, it } from "vitest";
import {
  expectApprovedOnceBy,
  recordedApprovals,
  runStepProcess,
  stateDirs,
} from "../../../test/support/cross-process-steps.js";
import { sentEmails } from "../../../test/support/durable-adapter-harness.js";

const APPROVER = "alice";

interface StepReport {
  interruptions: string[];
  toolResults?: Record<string, string>;
  finalOutput?: string;
}

/** Runs one step of the run in a fresh Node process over `dir`, and reads its report. */
const runStep = (dir: string, step: "start" | "approve" | "reject") =>
  runStepProcess<StepReport>("openai-agents-approval-process.ts", [dir, step, APPROVER]);

const stateDir = stateDirs("toolreg-openai-agents-");

describe("openAIAgentsTools across processes", () => {
  it("a run saved in one process and approved in another sends once, approved in toolreg as the approver; resuming the saved state again sends nothing more", async () => {
    const dir = stateDir();
    expect(await runStep(dir, "start")).toEqual({ interruptions: ["send_email"] });
    expect(sentEmails(dir)).toEqual([]);
    // Asking the SDK's human parks nothing in toolreg: the decision is the SDK's until it comes back.
    expect((await recordedApprovals(dir)).approvals).toEqual([]);

    const resumed = await runStep(dir, "approve");
    expect(resumed).toEqual({ interruptions: [], toolResults: { call_1: "sent" }, finalOutput: "done" });
    expect(sentEmails(dir)).toEqual([{ to: "bob@example.com" }]);
    await expectApprovedOnceBy(dir, APPROVER, "call_1");

    // The same saved state resumed again (a retried worker, say): the call's key replays the first result.
    const replayed = await runStep(dir, "approve");
    expect(replayed.toolResults).toEqual({ call_1: "sent" });
    expect(sentEmails(dir)).toHaveLength(1);
    await expectApprovedOnceBy(dir, APPROVER, "call_1");
  }, 150_000);

  it("a run rejected in another process sends nothing, and toolreg never approves it", async () => {
    const dir = stateDir();
    expect(await runStep(dir, "start")).toEqual({ interruptions: ["send_email"] });

    const resumed = await runStep(dir, "reject");
    expect(resumed.interruptions).toEqual([]);
    expect(resumed.toolResults?.call_1).toMatch(/not approved/);
    expect(sentEmails(dir)).toEqual([]);
    expect(await recordedApprovals(dir)).toEqual({ approvals: [], decisions: [] });
  }, 90_000);
});
