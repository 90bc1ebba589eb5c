/** @module `shell_exec`: one shell command in a sandbox; destructive, so every call waits for approval. */
import { z } from "zod";
import { defineTool } from "../../declaration/define-tool.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { Sandbox, SandboxResult } from "../../sandbox/sandbox.js";

export const MAX_SHELL_TIMEOUT_MS = 60_000;
export const DEFAULT_SHELL_TIMEOUT_MS = 10_000;
const DEFAULT_MEMORY_BYTES = 512 * 1024 * 1024;
const DEFAULT_STREAM_BYTES = 32 * 1024;
/** Room left before the seam's deadline so the sandbox's own timeout, which kills, fires first. */
const DEADLINE_MARGIN_MS = 100;

export interface ShellExecOptions {
  /** Address-space cap per command, swap included; default 512 MiB. */
  memoryBytes?: number;
  /** Bytes kept per stream (stdout, stderr); default 32 KiB. */
  maxOutputBytes?: number;
}

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

export function createShellExecTool(sandbox: Sandbox, options: ShellExecOptions = {}) {
  const memoryBytes = options.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_STREAM_BYTES;
  return defineTool({
    name: "shell_exec",
    description: `Runs a shell command in an isolated sandbox (${sandbox.name}): no network, a read-only filesystem except /tmp, not root, ${mebibytes(memoryBytes)} of memory, a time limit. Returns the exit code, stdout and stderr; a non-zero exit is a result, not an error. Nothing persists between calls.`,
    category: "code",
    effect: "destructive",
    input,
    limits: {
      timeoutMs: MAX_SHELL_TIMEOUT_MS + 5_000,
      outputBytes: 2 * maxOutputBytes + 8 * 1024,
    },
    async run({ command, stdin, timeoutMs }, context) {
      const asked = timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
      const allowed = Math.max(1, Math.min(asked, context.deadline - Date.now() - DEADLINE_MARGIN_MS));
      const result = await sandbox.run({
        command,
        ...(stdin === undefined ? {} : { stdin }),
        timeoutMs: allowed,
        maxOutputBytes,
        memoryBytes,
        signal: context.signal,
      });
      failOnLimit(result, allowed, memoryBytes);
      const truncated = result.stdoutTruncated || result.stderrTruncated;
      return {
        content: describeResult(result, maxOutputBytes),
        data: {
          exitCode: result.exitCode,
          stdoutTruncated: result.stdoutTruncated,
          stderrTruncated: result.stderrTruncated,
          durationMs: result.durationMs,
          sandbox: sandbox.name,
        },
        truncated,
        provenance: { source: `shell_exec:${sandbox.name}`, trusted: false },
      };
    },
  });
}

/** A limit the sandbox enforced is a failure envelope; the command's own failure is not. */
function failOnLimit(result: SandboxResult, timeoutMs: number, memoryBytes: number): void {
  const details = {
    limit: result.limitHit,
    durationMs: result.durationMs,
    stdoutBytesKept: Buffer.byteLength(result.stdout),
    stderrBytesKept: Buffer.byteLength(result.stderr),
  };
  if (result.limitHit === "timeout") {
    throw new ToolFailure("timeout", `the command did not finish within ${timeoutMs} ms and was killed`, {
      details: { ...details, timeoutMs },
    });
  }
  if (result.limitHit === "aborted") {
    throw new ToolFailure("timeout", "the call was aborted and the command was killed", {
      details: { ...details, aborted: true },
    });
  }
  if (result.limitHit === "memory") {
    throw new ToolFailure(
      "sandbox_violation",
      `the command ran out of memory: it hit the sandbox's ${mebibytes(memoryBytes)} memory limit (exit code ${result.exitCode})`,
      { details: { ...details, memoryBytes, exitCode: result.exitCode } },
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
