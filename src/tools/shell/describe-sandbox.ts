/** @module One line saying which sandbox shell_exec runs in here and which of its limits hold over what. */
import type { Sandbox } from "../../sandbox/sandbox.js";
import { DEFAULT_SHELL_MEMORY_BYTES, DEFAULT_SHELL_PIDS_LIMIT, type ShellExecOptions } from "./shell-exec.js";

/**
 * For `toolreg check` and the start-up warning, e.g. `sandbox: bubblewrap; memory+swap 512 MiB per command
 * (cgroup v1), pids 256 per command`, or the per-process fallback and why.
 */
export function describeSandbox(sandbox: Sandbox | undefined, options: ShellExecOptions = {}): string {
  if (!sandbox)
    return "sandbox: none works here (bubblewrap missing or cannot start), so shell_exec is not served";
  const memory = `${Math.round((options.memoryBytes ?? DEFAULT_SHELL_MEMORY_BYTES) / (1024 * 1024))} MiB`;
  const pids = options.pidsLimit ?? DEFAULT_SHELL_PIDS_LIMIT;
  const enforcement = sandbox.enforcement;
  if (!enforcement)
    return `sandbox: ${sandbox.name}; memory ${memory}, pids ${pids} (where enforced: not said)`;
  const parts = [
    enforcement.memory === "command"
      ? `memory+swap ${memory} per command (cgroup ${enforcement.cgroup})`
      : `memory+swap ${memory} per process only (RLIMIT_AS)`,
    enforcement.pids === "command" ? `pids ${pids} per command` : "pids not capped",
  ];
  const why = enforcement.reason === undefined ? "" : `: cgroups not usable: ${enforcement.reason}`;
  return `sandbox: ${sandbox.name}; ${parts.join(", ")}${why}`;
}
