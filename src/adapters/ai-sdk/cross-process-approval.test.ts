import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  expectApprovedOnceBy,
  recordedApprovals,
  runStepProcess,
  stateDirs,
} from "../../../test/support/cross-process-steps.js";
import { sentEmails } from "../../../test/support/durable-adapter-harness.js";

const nodeRequire = createRequire(import.meta.url);
/** The `ai` these tests run; each child reports its own, so a child on another copy fails the test. */
const AI_VERSION = (nodeRequire("ai/package.json") as { version: string }).version;
const APPROVER = "human:alice";

interface StepReport {
  aiVersion: string;
  approvalRequests?: string[];
  modelTurns?: number;
  toolOutputsSeen?: unknown[];
  text?: string;
}

/** Runs one step of the run in a fresh Node process over `dir`, and reads its report. */
const runStep = (dir: string, step: "ask" | "approve" | "deny") =>
  runStepProcess<StepReport>("ai-sdk-approval-process.ts", [dir, step, APPROVER]);

const stateDir = stateDirs("toolreg-ai-sdk-");

describe("aiSdkTools across processes", () => {
  it("asked in one process and approved in another, the email is sent once, approved as the approver", async () => {
    const dir = stateDir();
    const asked = await runStep(dir, "ask");
    expect(asked).toEqual({ aiVersion: AI_VERSION, approvalRequests: ["send_email"], modelTurns: 1 });
    expect(sentEmails(dir)).toEqual([]);

    const approved = await runStep(dir, "approve");
    expect(approved).toEqual({
      aiVersion: AI_VERSION,
      toolOutputsSeen: [{ type: "text", value: "sent" }],
      text: "sent",
    });
    expect(sentEmails(dir)).toEqual([{ to: "bob" }]);
    await expectApprovedOnceBy(dir, APPROVER, "call-send");

    // The same answer sent again, in yet another process: the model reads the result, nothing runs twice.
    const again = await runStep(dir, "approve");
    expect(again.toolOutputsSeen).toEqual([{ type: "text", value: "sent" }]);
    expect(sentEmails(dir)).toHaveLength(1);
    await expectApprovedOnceBy(dir, APPROVER, "call-send");
  }, 120_000);

  it("denied in another process, nothing is sent, the model hears why, and toolreg records nothing", async () => {
    const dir = stateDir();
    await runStep(dir, "ask");
    const denied = await runStep(dir, "deny");
    expect(denied.toolOutputsSeen).toEqual([{ type: "execution-denied", reason: "not today" }]);
    expect(sentEmails(dir)).toEqual([]);
    expect(await recordedApprovals(dir)).toEqual({ approvals: [], decisions: [] });
  }, 90_000);
});
