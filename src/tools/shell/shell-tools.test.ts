import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Envelope } from "../../seam/envelope.js";
import { createTestHarness } from "../../test/test-harness.js";
import { detectSandbox, shellTools } from "./index.js";

const sandbox = detectSandbox();
const required = process.env.CI === "true";
if (!sandbox && !required) {
  console.warn("shell-tools.test.ts: skipped — /usr/bin/bwrap is missing or cannot start a sandbox here");
}

function harness() {
  return createTestHarness(shellTools({ sandbox }), { clock: Date.now });
}

function approvalIdOf(envelope: Envelope): string {
  if (envelope.ok || envelope.error.code !== "approval_required")
    throw new Error(`expected a parked call, got ${JSON.stringify(envelope)}`);
  return envelope.error.details?.approvalId as string;
}

/** Calls shell_exec, approves it as "operator" and resumes it: what `toolreg call --approve` does. */
async function approvedCall(input: Record<string, unknown>): Promise<Envelope> {
  const { seam, context } = harness();
  const asker = context();
  const id = approvalIdOf(await seam.call(asker, "shell_exec", input));
  const approved = await seam.approve({ tenantId: "t1", approvalId: id, by: "operator" });
  expect(approved).toMatchObject({ ok: true });
  return seam.resume(asker, id);
}

function sleepersLeft(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (/^sleep 999\b/.test(commandLine)) found.push(`${pid}: ${commandLine}`);
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

describe("shell toolkit wiring", () => {
  it("shell_exec exists exactly when a sandbox is given", () => {
    expect(shellTools({})).toEqual([]);
    const fake = { name: "fake", run: () => Promise.reject(new Error("unused")) };
    const [tool, ...rest] = shellTools({ sandbox: fake });
    expect(rest).toEqual([]);
    expect(tool).toMatchObject({
      name: "shell_exec",
      category: "code",
      effect: "destructive",
      approval: "always",
      idempotencyKey: true,
      overrides: [],
    });
  });

  it("is gated by effect, not by the command: a harmless command parks like any other", async () => {
    const calls: string[] = [];
    const fake = {
      name: "fake",
      run: async ({ command }: { command: string }) => {
        calls.push(command);
        throw new Error("unused");
      },
    };
    const { seam, context } = createTestHarness(shellTools({ sandbox: fake }), { clock: Date.now });
    for (const command of ["true", "echo hi", "rm -rf /tmp/x"]) {
      approvalIdOf(await seam.call(context(), "shell_exec", { command }));
    }
    expect(calls).toEqual([]);
  });

  it("bounds the input", async () => {
    const fake = { name: "fake", run: () => Promise.reject(new Error("unused")) };
    const { seam, context } = createTestHarness(shellTools({ sandbox: fake }), { clock: Date.now });
    for (const input of [
      { command: "" },
      { command: "x".repeat(16_001) },
      { command: "true", timeoutMs: 60_001 },
    ]) {
      expect(await seam.call(context(), "shell_exec", input)).toMatchObject({
        ok: false,
        error: { code: "invalid_input" },
      });
    }
  });
});

describe("shell toolkit availability", () => {
  it.runIf(!sandbox && required)("bubblewrap is installed and works under CI=true", () => {
    expect.fail("CI=true but /usr/bin/bwrap is missing or cannot start a sandbox; install bubblewrap");
  });
});

describe.runIf(sandbox !== undefined)("shell_exec through the seam, in bubblewrap", () => {
  it("parks for approval, then runs `id -u` as a non-root user", async () => {
    const result = await approvedCall({ command: "id -u" });
    expect(result).toMatchObject({
      ok: true,
      data: { exitCode: 0, sandbox: "bubblewrap", stdoutTruncated: false },
      provenance: { source: "shell_exec:bubblewrap", trusted: false },
    });
    const uid = result.ok ? /--- stdout ---\n(\d+)\n/.exec(result.content)?.[1] : undefined;
    expect(Number(uid)).toBeGreaterThan(0);
  });

  it("a failing command is an ok envelope with its exit code, and its output is fenced", async () => {
    const result = await approvedCall({ command: "echo out; echo err >&2; exit 3", stdin: "ignored" });
    expect(result).toMatchObject({ ok: true, data: { exitCode: 3 } });
    if (!result.ok) return;
    expect(result.content).toContain("exit code 3");
    expect(result.content).toContain("out\n");
    expect(result.content).toContain("err\n");
    expect(result.content).toMatch(/do not follow them/);
  });

  it("reports truncated output", async () => {
    const result = await approvedCall({ command: "yes | head -c 200000" });
    expect(result).toMatchObject({ ok: true, truncated: true, data: { stdoutTruncated: true, exitCode: 0 } });
    expect(result.ok && result.content).toContain("[cut: only the first 32768 bytes kept]");
  });

  it("`sleep 999 | cat` with timeoutMs 500 is a timeout envelope within 1.5 s, with no sleep left", async () => {
    const { seam, context } = harness();
    const asker = context();
    const id = approvalIdOf(
      await seam.call(asker, "shell_exec", { command: "sleep 999 | cat", timeoutMs: 500 }),
    );
    await seam.approve({ tenantId: "t1", approvalId: id, by: "operator" });
    const started = Date.now();
    const result = await seam.resume(asker, id);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(result).toMatchObject({ ok: false, error: { code: "timeout", details: { timeoutMs: 500 } } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sleepersLeft()).toEqual([]);
  });

  it("an allocation past the memory cap is a sandbox_violation that says memory", async () => {
    const { seam, context } = createTestHarness(
      shellTools({ sandbox, shell: { memoryBytes: 128 * 1024 * 1024 } }),
      { clock: Date.now },
    );
    const asker = context();
    const command = "perl -e '$x = q(a) x (300 * 1024 * 1024)'";
    const id = approvalIdOf(await seam.call(asker, "shell_exec", { command }));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "operator" });
    expect(await seam.resume(asker, id)).toMatchObject({
      ok: false,
      error: {
        code: "sandbox_violation",
        message: expect.stringContaining("memory"),
        details: { limit: "memory", memoryBytes: 128 * 1024 * 1024 },
      },
    });
  });
});
