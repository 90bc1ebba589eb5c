import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "../../sandbox/bubblewrap.js";
import type { Sandbox } from "../../sandbox/sandbox.js";
import type { Envelope } from "../../seam/envelope.js";
import { createTestHarness } from "../../test/test-harness.js";
import { describeSandbox, detectSandbox, shellTools } from "./index.js";

const sandbox = detectSandbox();
const required = process.env.CI === "true";
if (!sandbox && !required) {
  console.warn("shell-tools.test.ts: skipped — /usr/bin/bwrap is missing or cannot start a sandbox here");
}
const cgroups = sandbox?.enforcement.cgroup ?? null;
if (sandbox && !cgroups && !required) {
  console.warn(`shell-tools.test.ts: command-cgroup tests skipped — ${sandbox.enforcement.reason}`);
}

function harness(tools = shellTools({ sandbox })) {
  return createTestHarness(tools, { clock: Date.now });
}

function approvalIdOf(envelope: Envelope): string {
  if (envelope.ok || envelope.error.code !== "approval_required")
    throw new Error(`expected a parked call, got ${JSON.stringify(envelope)}`);
  return envelope.error.details?.approvalId as string;
}

/** Calls shell_exec, approves it as "operator" and resumes it: what `toolreg call --approve` does. */
async function approvedCall(
  input: Record<string, unknown>,
  tools = shellTools({ sandbox }),
): Promise<Envelope> {
  const { seam, context } = harness(tools);
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

describe("the sandbox line of toolreg check", () => {
  const run = () => Promise.reject(new Error("unused"));
  it("names the sandbox and which limits hold over what, or why they hold per process only", () => {
    const cgroup = {
      name: "bubblewrap",
      run,
      enforcement: { memory: "command", pids: "command", cgroup: "v1" },
    };
    expect(describeSandbox(cgroup as Sandbox)).toBe(
      "sandbox: bubblewrap; memory+swap 512 MiB per command (cgroup v1), pids 256 per command",
    );
    const perProcess = {
      name: "bubblewrap",
      run,
      enforcement: { memory: "process", pids: "none", cgroup: null, reason: "no cgroup filesystem at /x" },
    };
    expect(describeSandbox(perProcess as Sandbox, { memoryBytes: 128 * 1024 * 1024 })).toBe(
      "sandbox: bubblewrap; memory+swap 128 MiB per process only (RLIMIT_AS), pids not capped: cgroups not usable: no cgroup filesystem at /x",
    );
    expect(describeSandbox(undefined)).toMatch(/^sandbox: none .* shell_exec is not served$/);
  });
});

describe("shell toolkit availability", () => {
  it.runIf(!sandbox && required)("bubblewrap is installed and works under CI=true", () => {
    expect.fail("CI=true but /usr/bin/bwrap is missing or cannot start a sandbox; install bubblewrap");
  });
  it.runIf(sandbox !== undefined && !cgroups && required)("command cgroups work under CI=true", () => {
    expect.fail(`CI=true but the sandbox cannot make command cgroups: ${sandbox?.enforcement.reason}`);
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

describe.runIf(cgroups !== null)("shell_exec's limits per command, in a cgroup", () => {
  const MiB = 1024 * 1024;

  it("says in its data which limits held over what", async () => {
    const result = await approvedCall({ command: "true" });
    expect(result).toMatchObject({
      ok: true,
      data: { exitCode: 0, limits: { memory: "command", pids: "command", cgroup: cgroups } },
    });
  });

  it("eight processes of 400 MB under the default 512 MiB: a sandbox_violation that says memory, not exit 137", async () => {
    const command = `for i in $(seq 8); do python3 -c 'import time; x = b"a" * (400 << 20); time.sleep(3)' & done; wait`;
    const result = await approvedCall({ command });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "sandbox_violation",
        message: expect.stringContaining("reached the sandbox's 512 MiB memory limit for the command"),
        details: { limit: "memory", memoryBytes: 512 * MiB, limits: { memory: "command" } },
      },
    });
    if (result.ok) return;
    expect(result.error.message).not.toContain("137");
    expect(result.error.details?.oomKills).toBeGreaterThanOrEqual(1);
    expect(result.error.details?.peakMemoryBytes).toBeLessThanOrEqual(512 * MiB);
  });

  it("a fork loop past the process limit is a sandbox_violation that says processes", async () => {
    const tools = shellTools({ sandbox, shell: { pidsLimit: 32 } });
    const result = await approvedCall({ command: "for i in $(seq 10000); do sleep 5 & done; wait" }, tools);
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "sandbox_violation",
        message: expect.stringContaining("more than the sandbox's 32 processes at once"),
        details: { limit: "processes", pidsLimit: 32, limits: { pids: "command" } },
      },
    });
    if (result.ok) return;
    expect(result.error.details?.forksRefused).toBeGreaterThanOrEqual(1);
  });
});

describe.runIf(sandbox !== undefined)("shell_exec where no cgroup can be made", () => {
  it("runs, and says memory is capped per process and processes not at all, and why", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolreg-no-cgroups-"));
    try {
      const fallback: Sandbox = new BubblewrapSandbox({ cgroupRoot: root });
      const result = await approvedCall({ command: "echo hi" }, shellTools({ sandbox: fallback }));
      expect(result).toMatchObject({
        ok: true,
        data: {
          exitCode: 0,
          limits: {
            memory: "process",
            pids: "none",
            cgroup: null,
            reason: `no cgroup filesystem at ${root}`,
          },
        },
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
