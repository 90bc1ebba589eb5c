import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { durableAdapterHarness, sentEmails } from "../../../test/support/durable-adapter-harness.js";

const STEP_SCRIPT = fileURLToPath(
  new URL("../../../test/support/langchain-approval-process.ts", import.meta.url),
);
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

interface StepReport {
  interrupts: { actionRequests: { name: string; args: unknown }[] }[];
  toolMessages: { toolCallId: string; status: string; content: string }[];
  reply: string;
}

/** Runs one step of the agent's run in a fresh Node process over `dir`, bounded in time, and reads its report. */
function runStep(dir: string, step: "start" | "approve" | "reject"): Promise<StepReport> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ["--import", TSX, STEP_SCRIPT, dir, step],
      { timeout: 30_000 },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${step} failed: ${error.message}\n${stderr}`))
          : resolve(JSON.parse(stdout.trim().split("\n").at(-1) ?? "")),
    ),
  );
}

/** What toolreg recorded in `dir`, read after the children have exited. */
async function recorded(dir: string) {
  const harness = durableAdapterHarness(dir);
  try {
    const approvals = await harness.stores.approvals.list({ tenantId: "t1" });
    const audit = await harness.stores.audit.list({ tenantId: "t1" });
    return { approvals, decisions: audit.filter((event) => event.kind === "approval-decision") };
  } finally {
    harness.close();
  }
}

const dirs: string[] = [];
function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolreg-langchain-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

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
    expect((await recorded(dir)).approvals).toEqual([]);

    const approved = await runStep(dir, "approve");
    expect(approved).toEqual({
      interrupts: [],
      toolMessages: [{ toolCallId: "call_1", status: "success", content: "sent" }],
      reply: "done",
    });
    expect(sentEmails(dir)).toEqual([{ to: "bob@example.com" }]);
    const { approvals, decisions } = await recorded(dir);
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({
      toolName: "send_email",
      toolCallId: "call_1",
      status: "executed",
      decidedBy: "alice",
    });
    expect(
      decisions.map((event) => [event.actor, event.outcome, event.toolCallId, event.approvalId]),
    ).toEqual([["alice", "approved", "call_1", approvals[0]?.id]]);

    // The same resume sent again (a retried worker, say): the thread has moved past the interrupt.
    const again = await runStep(dir, "approve");
    expect(again.toolMessages).toEqual(approved.toolMessages);
    expect(sentEmails(dir)).toHaveLength(1);
    expect((await recorded(dir)).decisions).toHaveLength(1);
  }, 150_000);

  it("rejected in another process, nothing is sent and toolreg records nothing", async () => {
    const dir = stateDir();
    await runStep(dir, "start");

    const rejected = await runStep(dir, "reject");
    expect(rejected.interrupts).toEqual([]);
    expect(rejected.toolMessages).toMatchObject([{ toolCallId: "call_1", status: "error" }]);
    expect(rejected.toolMessages[0]?.content).toMatch(/rejected/);
    expect(sentEmails(dir)).toEqual([]);
    expect(await recorded(dir)).toEqual({ approvals: [], decisions: [] });
  }, 90_000);
});
