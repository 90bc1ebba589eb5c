/**
 * @module The bubblewrap sandbox (Linux default): fresh namespaces, a minimal read-only root, one tmpfs, and
 * a cgroup per command where the host lets us make one.
 */
import { lstatSync, readlinkSync } from "node:fs";
import type { CgroupHierarchy, CommandCgroup } from "./cgroup.js";
import { launchInCgroup } from "./cgroup-launcher.js";
import { detectCgroups } from "./detect-cgroups.js";
import { runProcess } from "./run-process.js";
import type { Sandbox, SandboxEnforcement, SandboxResult, SandboxRunRequest } from "./sandbox.js";

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
  /**
   * Where the cgroup filesystems are mounted, default `/sys/fs/cgroup`; `false` to make no cgroups. Where
   * none can be made here, memory is capped per process (RLIMIT_AS) and processes are not capped.
   */
  cgroupRoot?: string | false;
  /** Drops the cgroup launcher to `unprivilegedId` when this process is root; default `/usr/bin/setpriv`. */
  setprivPath?: string;
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
  /** Which limits hold for the whole command here, found at construction by making a cgroup. */
  readonly enforcement: SandboxEnforcement;
  readonly #cgroups: CgroupHierarchy | undefined;
  readonly #setprivPath: string;

  constructor(options: BubblewrapOptions = {}) {
    this.#bwrapPath = options.bwrapPath ?? "/usr/bin/bwrap";
    this.#prlimitPath = options.prlimitPath ?? "/usr/bin/prlimit";
    this.#mounts = rootMounts(options.readOnlyPaths ?? ["/usr", "/etc"]);
    this.#tmpfsBytes = options.tmpfsBytes ?? DEFAULT_TMPFS_BYTES;
    // As root, a user namespace would map the sandbox's uid onto host root, which owns most files: so
    // bubblewrap itself is dropped to an unprivileged host account first.
    this.hostId = process.getuid?.() === 0 ? (options.unprivilegedId ?? NOBODY) : undefined;
    this.#setprivPath = options.setprivPath ?? "/usr/bin/setpriv";
    const support =
      options.cgroupRoot === false
        ? { reason: "cgroups turned off (cgroupRoot: false)" }
        : detectCgroups({ root: options.cgroupRoot, runAs: this.hostId, setprivPath: this.#setprivPath });
    this.#cgroups = support.hierarchy;
    this.enforcement = support.hierarchy
      ? { memory: "command", pids: "command", cgroup: support.hierarchy.version }
      : { memory: "process", pids: "none", cgroup: null, reason: support.reason };
  }

  /** The full argv for one run, program first. */
  argv(request: Pick<SandboxRunRequest, "command" | "memoryBytes">): string[] {
    const setup = { mounts: this.#mounts, tmpfsBytes: this.#tmpfsBytes, prlimitPath: this.#prlimitPath };
    return [this.#bwrapPath, ...bubblewrapArgs(setup, request)];
  }

  async run(request: SandboxRunRequest): Promise<SandboxResult> {
    let cgroup: CommandCgroup | undefined;
    let refused: string | undefined;
    try {
      cgroup = this.#cgroups?.create(request);
    } catch (error) {
      refused = `could not make this command's cgroup: ${(error as Error).message}`;
    }
    if (cgroup === undefined) {
      // Per-process limits only, and the result says so.
      const identity = this.hostId === undefined ? {} : { uid: this.hostId, gid: this.hostId };
      const result = await runProcess(this.argv(request), request, {
        sandbox: this.name,
        env: {},
        ...identity,
      });
      const enforcement: SandboxEnforcement = refused
        ? { memory: "process", pids: "none", cgroup: null, reason: refused }
        : this.enforcement;
      return { ...result, enforcement };
    }
    // The launcher joins the cgroup as this process, then drops to hostId and execs bwrap.
    const argv = launchInCgroup(cgroup.procsFiles, this.argv(request), {
      runAs: this.hostId,
      setprivPath: this.#setprivPath,
    });
    const result = await runProcess(argv, request, { sandbox: this.name, env: {}, cgroup });
    return { ...result, enforcement: this.enforcement };
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
