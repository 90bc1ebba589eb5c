/** @module Finds where this host lets the sandbox make command cgroups, by making one; never moves this process. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { CgroupHierarchy, CommandCgroup } from "./cgroup.js";
import { discardCgroupDirSync, type OwnCgroups, parseOwnCgroups } from "./cgroup-files.js";
import { LAUNCH_FAILED_EXIT, type LaunchOptions, launchInCgroup } from "./cgroup-launcher.js";
import { locateCgroupV1 } from "./cgroup-v1.js";
import { locateCgroupV2 } from "./cgroup-v2.js";

/** A hierarchy to make command cgroups in, or why there is none. */
export type CgroupSupport =
  | { hierarchy: CgroupHierarchy; reason?: undefined }
  | { hierarchy?: undefined; reason: string };

export interface DetectCgroupsOptions extends LaunchOptions {
  /** Where the cgroup filesystems are mounted; default `/sys/fs/cgroup`. */
  root?: string;
  /** Default: this process's, from `/proc/self/cgroup`. */
  ownCgroups?: OwnCgroups;
}

/**
 * v2 where the host's unified hierarchy has memory and pids for our children, else v1's memory and pids
 * hierarchies; then proven by making a cgroup, writing its limits, starting `true` in it through the
 * launcher, and removing it.
 */
export function detectCgroups(options: DetectCgroupsOptions = {}): CgroupSupport {
  if (process.platform !== "linux") return { reason: `cgroups are Linux's, and this is ${process.platform}` };
  const root = options.root ?? "/sys/fs/cgroup";
  let own: OwnCgroups;
  try {
    own = options.ownCgroups ?? parseOwnCgroups(readFileSync("/proc/self/cgroup", "utf8"));
  } catch (error) {
    return { reason: `cannot read /proc/self/cgroup: ${(error as Error).message}` };
  }
  const v2 = locateCgroupV2(root, own);
  if ("hierarchy" in v2) return proven(v2.hierarchy, options);
  const v1 = locateCgroupV1(root, own);
  if ("hierarchy" in v1) return proven(v1.hierarchy, options);
  // Name the hierarchy the host has; v1 where it mounts v1 memory, since that is what v2 would defer to.
  if (v1.mounted) return { reason: v1.reason };
  if (v2.mounted) return { reason: v2.reason };
  return { reason: `no cgroup filesystem at ${root}` };
}

function proven(hierarchy: CgroupHierarchy, options: LaunchOptions): CgroupSupport {
  const problem = probe(hierarchy, options);
  return problem === undefined ? { hierarchy } : { reason: problem };
}

/** Runs `true` through the launcher in a fresh cgroup: the reason it failed, or undefined. */
function probe(hierarchy: CgroupHierarchy, options: LaunchOptions): string | undefined {
  const where = `cgroup ${hierarchy.version} under ${hierarchy.parents.join(" and ")}`;
  let cgroup: CommandCgroup;
  try {
    cgroup = hierarchy.create({ memoryBytes: 64 * 1024 * 1024, pidsLimit: 16 });
  } catch (error) {
    return `${where}: cannot make a cgroup and write its limits (${(error as Error).message})`;
  }
  try {
    const [file, ...args] = launchInCgroup(cgroup.procsFiles, ["/bin/true"], options);
    const run = spawnSync(file as string, args, {
      env: {},
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 5_000,
    });
    if (run.status === 0) return undefined;
    const said =
      run.error?.message ?? run.stderr?.toString().trim().split("\n").at(-1) ?? `exit ${run.status}`;
    return run.status === LAUNCH_FAILED_EXIT
      ? `${where}: cannot place a process in a cgroup (${said})`
      : `${where}: the launcher failed (${said})`;
  } finally {
    for (const dir of cgroup.dirs) discardCgroupDirSync(dir);
  }
}
