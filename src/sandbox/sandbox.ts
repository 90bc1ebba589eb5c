/** @module The `Sandbox` port: run one shell command isolated, bounded in time, memory, processes and output. */

/** One command to run. Every bound is required: a sandbox never picks a limit on the caller's behalf. */
export interface SandboxRunRequest {
  /** Handed to `/bin/sh -c` inside the sandbox; never parsed or filtered here. */
  command: string;
  stdin?: string;
  /** Wall-clock limit; at the limit everything the command started is killed. */
  timeoutMs: number;
  /** Kept per stream; bytes past it are drained and dropped, and the result says so. */
  maxOutputBytes: number;
  /** Memory cap, swap included: for the command as a whole where the sandbox has cgroups, else per process. */
  memoryBytes: number;
  /** Most processes and threads the command may hold at once (the sandbox's own included), where enforced. */
  pidsLimit: number;
  /** Aborting kills the command as a timeout would. */
  signal?: AbortSignal;
}

/** Why a run was cut short, if it was. */
export type SandboxLimit = "timeout" | "memory" | "processes" | "aborted";

/** Which limits hold, and over what: the whole command (a cgroup) or each process alone (rlimits). */
export interface SandboxEnforcement {
  /** "command": all of the command's processes together; "process": each one alone (RLIMIT_AS). */
  memory: "command" | "process";
  /** "command": the command's processes and threads together; "none": only the host's own limit. */
  pids: "command" | "none";
  /** The cgroup version that enforces the command-wide limits, or null when none does. */
  cgroup: "v1" | "v2" | null;
  /** Why the command-wide limits are not in force, when they are not. */
  reason?: string;
}

/** What the command's cgroup counted, read just before it was removed. */
export interface CgroupReport {
  version: "v1" | "v2";
  /** Most memory (and swap, where accounted) the command held at once; null where the kernel keeps no peak. */
  peakMemoryBytes: number | null;
  /** Most processes and threads the command held at once; null where the kernel keeps no peak. */
  peakProcesses: number | null;
  /** Processes the kernel's OOM killer ended because the command reached its memory limit. */
  oomKills: number;
  /** Forks refused because the command reached its process limit. */
  forksRefused: number;
}

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
  /** The command ran out of memory under `memoryBytes`: its cgroup's OOM count, or its own error output, says so. */
  memoryLimitHit: boolean;
  /** The first limit that ended or broke the run, or null. */
  limitHit: SandboxLimit | null;
  durationMs: number;
  /** Which limits held for this run, where the adapter knows. */
  enforcement?: SandboxEnforcement;
  /** The command's cgroup's counters, when it ran in one. */
  cgroup?: CgroupReport;
}

/** A place to run commands. Adapters: bubblewrap (Linux default), docker (argv), local (unsafe, opt-in). */
export interface Sandbox {
  /** Short name shown in results and audit, e.g. "bubblewrap". */
  readonly name: string;
  /** Which limits this sandbox enforces on this host, where the adapter knows. */
  readonly enforcement?: SandboxEnforcement;
  run(request: SandboxRunRequest): Promise<SandboxResult>;
}
