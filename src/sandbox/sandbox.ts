/** @module The `Sandbox` port: run one shell command isolated, bounded in time, memory and output. */

/** One command to run. Every bound is required: a sandbox never picks a limit on the caller's behalf. */
export interface SandboxRunRequest {
  /** Handed to `/bin/sh -c` inside the sandbox; never parsed or filtered here. */
  command: string;
  stdin?: string;
  /** Wall-clock limit; at the limit everything the command started is killed. */
  timeoutMs: number;
  /** Kept per stream; bytes past it are drained and dropped, and the result says so. */
  maxOutputBytes: number;
  /** Address-space cap for the command and everything it starts, swap included. */
  memoryBytes: number;
  /** Aborting kills the command as a timeout would. */
  signal?: AbortSignal;
}

/** Why a run was cut short, if it was. */
export type SandboxLimit = "timeout" | "memory" | "aborted";

export interface SandboxResult {
  /** The command's exit code (128 + n when it died of signal n); null when the sandbox killed it. */
  exitCode: number | null;
  /** The signal the sandbox process died of, e.g. "SIGKILL" after a timeout. */
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  /** The command failed to allocate memory under `memoryBytes` (seen in its own error output). */
  memoryLimitHit: boolean;
  /** The first limit that ended or broke the run, or null. */
  limitHit: SandboxLimit | null;
  durationMs: number;
}

/** A place to run commands. Adapters: bubblewrap (Linux default), docker (argv), local (unsafe, opt-in). */
export interface Sandbox {
  /** Short name shown in results and audit, e.g. "bubblewrap". */
  readonly name: string;
  run(request: SandboxRunRequest): Promise<SandboxResult>;
}
