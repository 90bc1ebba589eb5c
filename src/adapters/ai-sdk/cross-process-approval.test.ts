import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { durableAdapterHarness, sentEmails } from "../../../test/support/durable-adapter-harness.js";

const STEP_SCRIPT = fileURLToPath(
  new URL("../../../test/support/ai-sdk-approval-process.ts", import.meta.url),
);
const nodeRequire = createRequire(import.meta.url);
const TSX = pathToFileURL(nodeRequire.resolve("tsx")).href;
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

/** Runs one step of the chat in a fresh Node process over `dir`, bounded in time, and reads its report. */
function runStep(dir: string, step: "ask" | "approve" | "deny"): Promise<StepReport> {
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
  const dir = mkdtempSync(join(tmpdir(), "toolreg-ai-sdk-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

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
    const { approvals, decisions } = await recorded(dir);
    expect(approvals).toEqual([
      expect.objectContaining({
        toolName: "send_email",
        toolCallId: "call-send",
        status: "executed",
        decidedBy: APPROVER,
      }),
    ]);
    expect(decisions).toMatchObject([{ actor: APPROVER, outcome: "approved", approvalId: approvals[0]?.id }]);

    // The same answer sent again, in yet another process: the model reads the result, nothing runs twice.
    const again = await runStep(dir, "approve");
    expect(again.toolOutputsSeen).toEqual([{ type: "text", value: "sent" }]);
    expect(sentEmails(dir)).toHaveLength(1);
    expect((await recorded(dir)).approvals).toHaveLength(1);
  }, 120_000);

  it("denied in another process, nothing is sent, the model hears why, and toolreg records nothing", async () => {
    const dir = stateDir();
    await runStep(dir, "ask");
    const denied = await runStep(dir, "deny");
    expect(denied.toolOutputsSeen).toEqual([{ type: "execution-denied", reason: "not today" }]);
    expect(sentEmails(dir)).toEqual([]);
    expect(await recorded(dir)).toEqual({ approvals: [], decisions: [] });
  }, 90_000);
});
