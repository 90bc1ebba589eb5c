import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { durableAdapterHarness, sentEmails } from "../../../test/support/durable-adapter-harness.js";

const STEP_SCRIPT = fileURLToPath(
  new URL("../../../test/support/openai-agents-approval-process.ts", import.meta.url),
);
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const APPROVER = "alice";

interface StepReport {
  interruptions: string[];
  toolResults?: Record<string, string>;
  finalOutput?: string;
}

/** Runs one step of the agent's run in a fresh Node process over `dir`, and reads its report. */
function runStep(dir: string, step: "start" | "approve" | "reject"): Promise<StepReport> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ["--import", TSX, STEP_SCRIPT, dir, step, APPROVER],
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
  const dir = mkdtempSync(join(tmpdir(), "toolreg-openai-agents-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("openAIAgentsTools across processes", () => {
  it("a run saved in one process and approved in another sends once, approved in toolreg as the approver; resuming the saved state again sends nothing more", async () => {
    const dir = stateDir();
    expect(await runStep(dir, "start")).toEqual({ interruptions: ["send_email"] });
    expect(sentEmails(dir)).toEqual([]);
    // Asking the SDK's human parks nothing in toolreg: the decision is the SDK's until it comes back.
    expect((await recorded(dir)).approvals).toEqual([]);

    const resumed = await runStep(dir, "approve");
    expect(resumed).toEqual({ interruptions: [], toolResults: { call_1: "sent" }, finalOutput: "done" });
    expect(sentEmails(dir)).toEqual([{ to: "bob@example.com" }]);
    const { approvals, decisions } = await recorded(dir);
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({
      toolName: "send_email",
      toolCallId: "call_1",
      status: "executed",
      decidedBy: APPROVER,
    });
    expect(
      decisions.map((event) => [event.actor, event.outcome, event.toolCallId, event.approvalId]),
    ).toEqual([[APPROVER, "approved", "call_1", approvals[0]?.id]]);

    // The same saved state resumed again (a retried worker, say): the call's key replays the first result.
    const replayed = await runStep(dir, "approve");
    expect(replayed.toolResults).toEqual({ call_1: "sent" });
    expect(sentEmails(dir)).toHaveLength(1);
    const again = await recorded(dir);
    expect(again.approvals.map((approval) => approval.status)).toEqual(["executed"]);
    expect(again.decisions).toHaveLength(1);
  }, 150_000);

  it("a run rejected in another process sends nothing, and toolreg never approves it", async () => {
    const dir = stateDir();
    expect(await runStep(dir, "start")).toEqual({ interruptions: ["send_email"] });

    const resumed = await runStep(dir, "reject");
    expect(resumed.interruptions).toEqual([]);
    expect(resumed.toolResults?.call_1).toMatch(/not approved/);
    expect(sentEmails(dir)).toEqual([]);
    const { approvals, decisions } = await recorded(dir);
    expect(approvals).toEqual([]);
    expect(decisions).toEqual([]);
  }, 90_000);
});
