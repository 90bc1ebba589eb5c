/**
 * @module Command cgroups on cgroup v2 (the unified hierarchy): one cgroup with memory.max, memory.swap.max,
 * memory.oom.group and pids.max.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type {
  CgroupCounters,
  CgroupHierarchy,
  CgroupLimits,
  CgroupLocation,
  CommandCgroup,
} from "./cgroup.js";
import {
  CGROUP_V2_MAGIC,
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

const NEEDED = ["memory", "pids"];

/**
 * The unified hierarchy at `root` (pure v2) or `root/unified` (hybrid), at this process's own cgroup. A
 * child gets memory and pids only if the parent enables them in `cgroup.subtree_control`, and the kernel
 * enables none there while the cgroup holds a process ("no internal processes"), except at the root. This
 * process is in its cgroup and is not moved, so outside the root that has to have been arranged already.
 */
export function locateCgroupV2(root: string, own: OwnCgroups): CgroupLocation {
  const mount = [root, join(root, "unified")].find((path) => isFilesystem(path, CGROUP_V2_MAGIC));
  if (mount === undefined) return { reason: `no cgroup v2 hierarchy at ${root}`, mounted: false };
  if (own.v2 === undefined) return { reason: "this process is in no cgroup v2 cgroup", mounted: true };
  const parent = join(mount, own.v2).replace(/(?<=.)\/$/, "");
  const words = (file: string) => {
    try {
      return readFileSync(join(parent, file), "utf8").trim().split(/\s+/).filter(Boolean);
    } catch {
      return undefined;
    }
  };
  const available = words("cgroup.controllers");
  if (available === undefined) {
    return { reason: `this process's v2 cgroup ${own.v2} is not visible at ${parent}`, mounted: true };
  }
  const absent = NEEDED.filter((controller) => !available.includes(controller));
  if (absent.length > 0) {
    return {
      reason: `cgroup v2 at ${parent} has no ${absent.join(" or ")} controller (cgroup.controllers: "${available.join(" ")}")`,
      mounted: true,
    };
  }
  const enabled = words("cgroup.subtree_control") ?? [];
  const disabled = NEEDED.filter((controller) => !enabled.includes(controller));
  if (disabled.length > 0) {
    return {
      reason: `cgroup v2 at ${parent} does not enable ${disabled.join(" and ")} for its children (cgroup.subtree_control), and the kernel enables none in a cgroup that holds a process (toolreg is in it, and is not moved out)`,
      mounted: true,
    };
  }
  sweepAbandoned(parent);
  return { hierarchy: new CgroupV2Hierarchy(parent) };
}

class CgroupV2Hierarchy implements CgroupHierarchy {
  readonly version = "v2";
  readonly parents: readonly string[];

  constructor(readonly parent: string) {
    this.parents = [parent];
  }

  create(limits: CgroupLimits): CommandCgroup {
    const dir = join(this.parent, uniqueCgroupName());
    mkdirSync(dir);
    try {
      writeFileSync(join(dir, "memory.max"), String(limits.memoryBytes));
      // No swap on top of memory.max: memory and swap together stay under the one cap.
      if (existsSync(join(dir, "memory.swap.max"))) writeFileSync(join(dir, "memory.swap.max"), "0");
      // One OOM kill takes the whole command (kernel 4.19+).
      if (existsSync(join(dir, "memory.oom.group"))) writeFileSync(join(dir, "memory.oom.group"), "1");
      writeFileSync(join(dir, "pids.max"), String(limits.pidsLimit));
    } catch (error) {
      discardCgroupDirSync(dir);
      throw error;
    }
    return new CgroupV2(dir);
  }
}

class CgroupV2 implements CommandCgroup {
  readonly version = "v2";
  readonly dirs: readonly string[];
  readonly procsFiles: readonly string[];

  constructor(readonly dir: string) {
    this.dirs = [dir];
    this.procsFiles = [join(dir, "cgroup.procs")];
  }

  counters(): CgroupCounters {
    return {
      oomKills: readKeyed(join(this.dir, "memory.events"), "oom_kill"),
      forksRefused: readKeyed(join(this.dir, "pids.events"), "max"),
    };
  }

  async close(): Promise<CgroupReport> {
    try {
      // cgroup.kill (kernel 5.14+) kills every member at once, forks in flight included.
      try {
        writeFileSync(join(this.dir, "cgroup.kill"), "1");
      } catch {
        // Older kernel: the kill loop below does it.
      }
      await killMembers(this.procsFiles);
      return {
        version: "v2",
        peakMemoryBytes: readNumber(join(this.dir, "memory.peak")),
        peakProcesses: readNumber(join(this.dir, "pids.peak")),
        ...this.counters(),
      };
    } finally {
      await removeCgroupDir(this.dir);
    }
  }
}
