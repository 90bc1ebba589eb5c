/**
 * @module What the adapters' cross-process approval tests share: a step of an agent's run in a fresh Node
 * process, what toolreg recorded once the steps are over, and state folders removed after each test.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, expect } from "vitest";
import { durableAdapterHarness } from "./durable-adapter-harness.js";

const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/**
 * Runs `script` (a file of test/support) with `args` in a fresh Node process, bounded to 30 s, and reads
 * its report: the last line it printed, as JSON.
 */
export function runStepProcess<Report>(script: string, args: readonly string[]): Promise<Report> {
  const path = fileURLToPath(new URL(`./${script}`, import.meta.url));
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ["--import", TSX, path, ...args],
      { timeout: 30_000 },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${args.join(" ")} failed: ${error.message}\n${stderr}`))
          : resolve(JSON.parse(stdout.trim().split("\n").at(-1) ?? "")),
    ),
  );
}

/** The approvals and approval decisions toolreg recorded in `dir`, read after the children have exited. */
export async function recordedApprovals(dir: string) {
  const harness = durableAdapterHarness(dir);
  try {
    const approvals = await harness.stores.approvals.list({ tenantId: "t1" });
    const audit = await harness.stores.audit.list({ tenantId: "t1" });
    return { approvals, decisions: audit.filter((event) => event.kind === "approval-decision") };
  } finally {
    harness.close();
  }
}

/**
 * Asserts that toolreg holds exactly one approval in `dir`, of the `send_email` call `toolCallId`, executed
 * and decided by `approver`, and exactly one decision in the audit trail, theirs, for that approval.
 */
export async function expectApprovedOnceBy(dir: string, approver: string, toolCallId: string): Promise<void> {
  const { approvals, decisions } = await recordedApprovals(dir);
  expect(approvals).toEqual([
    expect.objectContaining({ toolName: "send_email", toolCallId, status: "executed", decidedBy: approver }),
  ]);
  expect(decisions.map((event) => [event.actor, event.outcome, event.toolCallId, event.approvalId])).toEqual([
    [approver, "approved", toolCallId, approvals[0]?.id],
  ]);
}

/** Makes a fresh state folder each call, every one removed after its test; call at a file's top level. */
export function stateDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}
