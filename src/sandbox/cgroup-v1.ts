/** @module Command cgroups on cgroup v1: one cgroup in the memory hierarchy and one in the pids hierarchy. */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type {
  CgroupCounters,
  CgroupHierarchy,
  CgroupLimits,
  CgroupLocation,
  CommandCgroup,
} from "./cgroup.js";
import {
  CGROUP_V1_MAGIC,
  discardCgroupDirSync,
  isFilesystem,
  killMembers,
  type OwnCgroups,
  readKeyed,
  readNumber,
  removeCgroupDir,
  sweepAbandoned,
  uniqueCgroupName,
} from "./cgroup-files.js";
import type { CgroupReport } from "./sandbox.js";

/** The v1 hierarchy under `root` (`root/memory`, `root/pids`), at this process's own cgroups there. */
export function locateCgroupV1(root: string, own: OwnCgroups): CgroupLocation {
  const parents: string[] = [];
  for (const controller of ["memory", "pids"]) {
    const mount = join(root, controller);
    if (!isFilesystem(mount, CGROUP_V1_MAGIC)) {
      return { reason: `no cgroup v1 ${controller} hierarchy at ${mount}`, mounted: parents.length > 0 };
    }
    const path = own.v1.get(controller);
    if (path === undefined) return { reason: `this process is in no v1 ${controller} cgroup`, mounted: true };
    const parent = join(mount, path).replace(/(?<=.)\/$/, "");
    // In a container without a cgroup namespace the mount shows a subtree, and our path is not in it.
    if (!existsSync(join(parent, "cgroup.procs"))) {
      return {
        reason: `this process's v1 ${controller} cgroup ${path} is not visible at ${parent}`,
        mounted: true,
      };
    }
    parents.push(parent);
  }
  const [memory, pids] = parents as [string, string];
  for (const parent of parents) sweepAbandoned(parent);
  return { hierarchy: new CgroupV1Hierarchy(memory, pids) };
}

class CgroupV1Hierarchy implements CgroupHierarchy {
  readonly version = "v1";
  readonly parents: readonly string[];
  /** Whether the kernel accounts swap (`memory.memsw.*`); without it, the cgroup is kept from swapping. */
  readonly #swapAccounted: boolean;

  constructor(
    readonly memoryParent: string,
    readonly pidsParent: string,
  ) {
    this.parents = [memoryParent, pidsParent];
    this.#swapAccounted = existsSync(join(memoryParent, "memory.memsw.limit_in_bytes"));
  }

  create(limits: CgroupLimits): CommandCgroup {
    const name = uniqueCgroupName();
    const memory = join(this.memoryParent, name);
    const pids = join(this.pidsParent, name);
    const made: string[] = [];
    try {
      mkdirSync(memory);
      made.push(memory);
      // memory.limit_in_bytes first: the kernel refuses a memsw limit below the memory limit.
      writeFileSync(join(memory, "memory.limit_in_bytes"), String(limits.memoryBytes));
      if (this.#swapAccounted)
        writeFileSync(join(memory, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
      else writeFileSync(join(memory, "memory.swappiness"), "0");
      // v1 has no oom.group: the OOM killer stays on (a frozen cgroup would hang the run) and the sandbox
      // kills the rest of the command when it sees the first OOM kill.
      writeFileSync(join(memory, "memory.oom_control"), "0");
      mkdirSync(pids);
      made.push(pids);
      writeFileSync(join(pids, "pids.max"), String(limits.pidsLimit));
    } catch (error) {
      for (const dir of made.reverse()) discardCgroupDirSync(dir);
      throw error;
    }
    return new CgroupV1(memory, pids, this.#swapAccounted);
  }
}

class CgroupV1 implements CommandCgroup {
  readonly version = "v1";
  readonly dirs: readonly string[];
  readonly procsFiles: readonly string[];

  constructor(
    readonly memory: string,
    readonly pids: string,
    readonly swapAccounted: boolean,
  ) {
    this.dirs = [memory, pids];
    this.procsFiles = [join(memory, "cgroup.procs"), join(pids, "cgroup.procs")];
  }

  counters(): CgroupCounters {
    return {
      oomKills: readKeyed(join(this.memory, "memory.oom_control"), "oom_kill"),
      forksRefused: readKeyed(join(this.pids, "pids.events"), "max"),
    };
  }

  async close(): Promise<CgroupReport> {
    try {
      await killMembers(this.procsFiles);
      const peak = this.swapAccounted ? "memory.memsw.max_usage_in_bytes" : "memory.max_usage_in_bytes";
      return {
        version: "v1",
        peakMemoryBytes: readNumber(join(this.memory, peak)),
        peakProcesses: readNumber(join(this.pids, "pids.peak")),
        ...this.counters(),
      };
    } finally {
      await Promise.all(this.dirs.map((dir) => removeCgroupDir(dir)));
    }
  }
}
