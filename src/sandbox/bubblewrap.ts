/** @module The bubblewrap sandbox (Linux default): fresh namespaces, a minimal read-only root, one tmpfs. */
import { lstatSync, readlinkSync } from "node:fs";
import { runProcess } from "./run-process.js";
import type { Sandbox, SandboxResult, SandboxRunRequest } from "./sandbox.js";

export interface BubblewrapOptions {
  /** Default `/usr/bin/bwrap`. */
  bwrapPath?: string;
  /** Sets the memory cap inside the sandbox before the shell starts; default `/usr/bin/prlimit`. */
  prlimitPath?: string;
  /** Size of the one writable mount, `/tmp`; default 64 MiB. */
  tmpfsBytes?: number;
  /** Host directories bound read-only as they are; default `/usr` and `/etc`. */
  readOnlyPaths?: readonly string[];
  /** Host uid and gid bubblewrap runs as when this process is root; default 65534 (nobody). */
  unprivilegedId?: number;
}

const NOBODY = 65534;
const DEFAULT_TMPFS_BYTES = 64 * 1024 * 1024;
/** Top-level names that merged-/usr systems make symlinks (kept as symlinks) and others make directories. */
const ROOT_LINKS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";

/** The bubblewrap sandbox. The mounts are fixed at construction; only the command varies per run. */
export class BubblewrapSandbox implements Sandbox {
  readonly name = "bubblewrap";
  readonly #bwrapPath: string;
  readonly #prlimitPath: string;
  readonly #mounts: readonly string[];
  readonly #tmpfsBytes: number;
  /** The host account bubblewrap runs as, or undefined to run as this process. */
  readonly hostId: number | undefined;

  constructor(options: BubblewrapOptions = {}) {
    this.#bwrapPath = options.bwrapPath ?? "/usr/bin/bwrap";
    this.#prlimitPath = options.prlimitPath ?? "/usr/bin/prlimit";
    this.#mounts = rootMounts(options.readOnlyPaths ?? ["/usr", "/etc"]);
    this.#tmpfsBytes = options.tmpfsBytes ?? DEFAULT_TMPFS_BYTES;
    // As root, a user namespace would map the sandbox's uid onto host root, which owns most files: so
    // bubblewrap itself is dropped to an unprivileged host account first.
    this.hostId = process.getuid?.() === 0 ? (options.unprivilegedId ?? NOBODY) : undefined;
  }

  /** The full argv for one run, program first. */
  argv(request: Pick<SandboxRunRequest, "command" | "memoryBytes">): string[] {
    const setup = { mounts: this.#mounts, tmpfsBytes: this.#tmpfsBytes, prlimitPath: this.#prlimitPath };
    return [this.#bwrapPath, ...bubblewrapArgs(setup, request)];
  }

  run(request: SandboxRunRequest): Promise<SandboxResult> {
    const identity = this.hostId === undefined ? {} : { uid: this.hostId, gid: this.hostId };
    return runProcess(this.argv(request), request, { sandbox: this.name, env: {}, ...identity });
  }
}

/** Builds the bubblewrap sandbox. */
export function createBubblewrapSandbox(options: BubblewrapOptions = {}): BubblewrapSandbox {
  return new BubblewrapSandbox(options);
}

/** The bwrap arguments for one run, after the program name. Exported so tests can read every flag. */
export function bubblewrapArgs(
  setup: { mounts: readonly string[]; tmpfsBytes: number; prlimitPath: string },
  request: Pick<SandboxRunRequest, "command" | "memoryBytes">,
): string[] {
  return [
    "--unshare-all", // network, pid, ipc, uts, cgroup, user
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--uid",
    String(NOBODY),
    "--gid",
    String(NOBODY),
    "--hostname",
    "sandbox",
    ...setup.mounts,
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--size",
    String(setup.tmpfsBytes),
    "--tmpfs",
    "/tmp",
    "--remount-ro",
    "/",
    "--chdir",
    "/tmp",
    "--clearenv",
    "--setenv",
    "PATH",
    SANDBOX_PATH,
    "--setenv",
    "HOME",
    "/tmp",
    "--setenv",
    "LANG",
    "C.UTF-8",
    "--",
    // RLIMIT_AS bounds every byte a process maps, so swap cannot stand in for memory.
    setup.prlimitPath,
    `--as=${request.memoryBytes}`,
    "--core=0",
    "--",
    "/bin/sh",
    "-c",
    request.command,
  ];
}

/** Read-only binds for the given paths, plus the root symlinks (/bin → usr/bin) as the host has them. */
function rootMounts(readOnlyPaths: readonly string[]): string[] {
  const mounts: string[] = [];
  for (const path of readOnlyPaths) mounts.push("--ro-bind", path, path);
  for (const path of ROOT_LINKS) {
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) mounts.push("--symlink", readlinkSync(path), path);
      else if (stat.isDirectory()) mounts.push("--ro-bind", path, path);
    } catch {
      // Absent on this host.
    }
  }
  return mounts;
}
