/** @module The local "sandbox": runs on the host with no isolation, only for a deployment that says so in code. */
import { runProcess } from "./run-process.js";
import type { Sandbox, SandboxEnforcement, SandboxResult, SandboxRunRequest } from "./sandbox.js";
import { SandboxUnavailableError } from "./sandbox-unavailable-error.js";

export interface LocalOptions {
  /** Must be the literal `true`: commands then run as this process, with its network and files. */
  allowUnsafeLocalExecution: true;
  /** Default `/usr/bin/prlimit`, for the memory cap. */
  prlimitPath?: string;
}

/**
 * No network, filesystem or user isolation: only the timeout (process group), the memory cap (per process)
 * and the output cap hold. A process that calls setsid escapes the timeout's kill.
 */
export class LocalSandbox implements Sandbox {
  readonly name = "local";
  readonly enforcement: SandboxEnforcement = {
    memory: "process",
    pids: "none",
    cgroup: null,
    reason: "the local sandbox makes no cgroups",
  };
  readonly #prlimitPath: string;

  constructor(options: LocalOptions) {
    if (options?.allowUnsafeLocalExecution !== true) {
      throw new SandboxUnavailableError(
        "local",
        "the local sandbox runs commands unisolated on this host; construct it with { allowUnsafeLocalExecution: true } to accept that",
      );
    }
    this.#prlimitPath = options.prlimitPath ?? "/usr/bin/prlimit";
  }

  async run(request: SandboxRunRequest): Promise<SandboxResult> {
    const argv = [this.#prlimitPath, `--as=${request.memoryBytes}`, "--core=0", "--", "/bin/sh", "-c"];
    const result = await runProcess([...argv, request.command], request, {
      sandbox: this.name,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" },
    });
    return { ...result, enforcement: this.enforcement };
  }
}

export function createLocalSandbox(options: LocalOptions): LocalSandbox {
  return new LocalSandbox(options);
}
