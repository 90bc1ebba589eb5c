/** @module `shell_exec`: one shell command in a sandbox; destructive, so every call waits for approval. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { SandboxEnforcement, SandboxResult } from "../../sandbox/sandbox.js";
import { type ShellExecOptions, shellTool } from "./shell-env.js";

export type { ShellExecOptions } from "./shell-env.js";

export const MAX_SHELL_TIMEOUT_MS = 60_000;
export const DEFAULT_SHELL_TIMEOUT_MS = 10_000;
export const DEFAULT_SHELL_MEMORY_BYTES = 512 * 1024 * 1024;
/** Room for a build's or a test runner's workers, far below a host's own limit (tens of thousands). */
export const DEFAULT_SHELL_PIDS_LIMIT = 256;
const DEFAULT_STREAM_BYTES = 32 * 1024;
/** Room left before the seam's deadline so the sandbox's own timeout, which kills, fires first. */
const DEADLINE_MARGIN_MS = 100;

const input = z.object({
  command: z.string().min(1).max(16_000).describe("a POSIX shell command line, run with /bin/sh -c"),
  stdin: z.string().max(1_000_000).optional().describe("text piped to the command's standard input"),
  timeoutMs: z
    .number()
    .int()
    .min(100)
    .max(MAX_SHELL_TIMEOUT_MS)
    .optional()
    .describe(
      `wall-clock limit in milliseconds, at most ${MAX_SHELL_TIMEOUT_MS}; ${DEFAULT_SHELL_TIMEOUT_MS} when omitted`,
    ),
});

/** shell_exec as declared for a sandbox of that name and those limits (its description states both). */
export function shellExecSpec(sandboxName: string, options: ShellExecOptions = {}) {
  const memoryBytes = options.memoryBytes ?? DEFAULT_SHELL_MEMORY_BYTES;
  const pidsLimit = options.pidsLimit ?? DEFAULT_SHELL_PIDS_LIMIT;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_STREAM_BYTES;
  return shellTool({
    name: "shell_exec",
    description: `Runs a shell command in an isolated sandbox (${sandboxName}): no network, a read-only filesystem except /tmp, not root, ${mebibytes(memoryBytes)} of memory, a time limit. Returns the exit code, stdout and stderr; a non-zero exit is a result, not an error. Nothing persists between calls.`,
    category: "code",
    effect: "destructive",
    input,
    limits: {
      timeoutMs: MAX_SHELL_TIMEOUT_MS + 5_000,
      outputBytes: 2 * maxOutputBytes + 8 * 1024,
    },
    async run({ command, stdin, timeoutMs }, context, { sandbox }) {
      const asked = timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
      const allowed = Math.max(1, Math.min(asked, context.deadline - Date.now() - DEADLINE_MARGIN_MS));
      const result = await sandbox.run({
        command,
        ...(stdin === undefined ? {} : { stdin }),
        timeoutMs: allowed,
        maxOutputBytes,
        memoryBytes,
        pidsLimit,
        signal: context.signal,
      });
      const limits = result.enforcement ?? sandbox.enforcement;
      failOnLimit(result, { timeoutMs: allowed, memoryBytes, pidsLimit, limits });
      const truncated = result.stdoutTruncated || result.stderrTruncated;
      return {
        content: describeResult(result, maxOutputBytes),
        data: {
          exitCode: result.exitCode,
          stdoutTruncated: result.stdoutTruncated,
          stderrTruncated: result.stderrTruncated,
          durationMs: result.durationMs,
          sandbox: sandbox.name,
          ...(limits ? { limits } : {}),
          ...(result.cgroup?.peakMemoryBytes == null
            ? {}
            : { peakMemoryBytes: result.cgroup.peakMemoryBytes }),
        },
        truncated,
        provenance: { source: `shell_exec:${sandbox.name}`, trusted: false },
      };
    },
  });
}

interface Bounds {
  timeoutMs: number;
  memoryBytes: number;
  pidsLimit: number;
  /** Which limits held over what: the whole command (a cgroup) or each process alone. */
  limits: SandboxEnforcement | undefined;
}

/** A limit the sandbox enforced is a failure envelope; the command's own failure is not. */
function failOnLimit(result: SandboxResult, bounds: Bounds): void {
  const details = {
    limit: result.limitHit,
    durationMs: result.durationMs,
    stdoutBytesKept: Buffer.byteLength(result.stdout),
    stderrBytesKept: Buffer.byteLength(result.stderr),
    ...(bounds.limits ? { limits: bounds.limits } : {}),
  };
  if (result.limitHit === "timeout") {
    throw new ToolFailure(
      "timeout",
      `the command did not finish within ${bounds.timeoutMs} ms and was killed`,
      {
        details: { ...details, timeoutMs: bounds.timeoutMs },
      },
    );
  }
  if (result.limitHit === "aborted") {
    throw new ToolFailure("timeout", "the call was aborted and the command was killed", {
      details: { ...details, aborted: true },
    });
  }
  const cgroup = result.cgroup;
  const ended = result.exitCode === null ? ", and it was killed" : "";
  if (result.limitHit === "memory") {
    const cap = mebibytes(bounds.memoryBytes);
    const message = !cgroup?.oomKills
      ? `the command ran out of memory: a process of it hit the sandbox's ${cap} memory limit${bounds.limits?.memory === "process" ? " per process" : ""} (exit code ${result.exitCode})`
      : `the command ran out of memory: its processes together reached the sandbox's ${cap} memory limit for the command${ended}`;
    throw new ToolFailure("sandbox_violation", message, {
      details: {
        ...details,
        memoryBytes: bounds.memoryBytes,
        exitCode: result.exitCode,
        ...(cgroup ? { peakMemoryBytes: cgroup.peakMemoryBytes, oomKills: cgroup.oomKills } : {}),
      },
    });
  }
  if (result.limitHit === "processes") {
    const refused = cgroup ? `${cgroup.forksRefused} fork(s) were refused` : "its forks were refused";
    throw new ToolFailure(
      "sandbox_violation",
      `the command tried to run more than the sandbox's ${bounds.pidsLimit} processes at once: ${refused}${ended}`,
      {
        details: {
          ...details,
          pidsLimit: bounds.pidsLimit,
          exitCode: result.exitCode,
          ...(cgroup ? { forksRefused: cgroup.forksRefused, peakProcesses: cgroup.peakProcesses } : {}),
        },
      },
    );
  }
}

function describeResult(result: SandboxResult, maxOutputBytes: number): string {
  const cut = (truncated: boolean) =>
    truncated ? `\n[cut: only the first ${maxOutputBytes} bytes kept]` : "";
  return [
    `exit code ${result.exitCode} after ${result.durationMs} ms`,
    `--- stdout ---\n${result.stdout}${cut(result.stdoutTruncated)}`,
    `--- stderr ---\n${result.stderr}${cut(result.stderrTruncated)}`,
  ].join("\n");
}

function mebibytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}
