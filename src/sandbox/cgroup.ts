/**
 * @module Command cgroups: each command in a cgroup of its own, a child of this process's own cgroup, whose
 * memory (swap included) and process limits hold for all of the command's processes together.
 */
import type { CgroupReport } from "./sandbox.js";

/** The limits one command's cgroup holds. */
export interface CgroupLimits {
  memoryBytes: number;
  pidsLimit: number;
}

/** The kernel's counts of limits hit so far. */
export interface CgroupCounters {
  oomKills: number;
  forksRefused: number;
}

/** One command's cgroup: made before the command starts, closed after it ends. */
export interface CommandCgroup {
  readonly version: "v1" | "v2";
  /** The cgroup directories: one per v1 hierarchy, or the one v2 directory. */
  readonly dirs: readonly string[];
  /** The `cgroup.procs` files the launcher writes its own pid to before it execs the command. */
  readonly procsFiles: readonly string[];
  /** The counters now, read while the command runs; throws once the cgroup is gone. */
  counters(): CgroupCounters;
  /** Kills whatever is left in the cgroup, reads what it counted, and removes it. */
  close(): Promise<CgroupReport>;
}

/** Where this host makes command cgroups. */
export interface CgroupHierarchy {
  readonly version: "v1" | "v2";
  /** The server's own cgroup directories the command cgroups are made under. */
  readonly parents: readonly string[];
  /** Makes one command's cgroup with its limits written; throws, leaving nothing behind, if the kernel refuses. */
  create(limits: CgroupLimits): CommandCgroup;
}

/** What looking for one cgroup version found: a hierarchy, or why not and whether the host mounts it at all. */
export type CgroupLocation = { hierarchy: CgroupHierarchy } | { reason: string; mounted: boolean };
