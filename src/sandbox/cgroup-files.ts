/** @module Reading and writing cgroup files: this process's own cgroups, counters, unique names, emptying and removing. */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmdirSync, statfsSync } from "node:fs";
import { join } from "node:path";

// Cgroup files are read synchronously: the kernel answers from memory in tens of microseconds, where an
// asynchronous read's four trips through libuv's thread pool take ten times as long.

/** `statfs` magic numbers of the two cgroup filesystems. */
export const CGROUP_V1_MAGIC = 0x27e0eb;
export const CGROUP_V2_MAGIC = 0x63677270;

/** Where this process sits: v1 controller → path, and the v2 path; both relative to the hierarchy's root. */
export interface OwnCgroups {
  v1: ReadonlyMap<string, string>;
  v2: string | undefined;
}

/** Parses `/proc/self/cgroup` (`id:controllers:path` per line; v2 is `0::path`). */
export function parseOwnCgroups(text: string): OwnCgroups {
  const v1 = new Map<string, string>();
  let v2: string | undefined;
  for (const line of text.split("\n")) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    const [, id, controllers = "", path = ""] = match;
    if (id === "0" && controllers === "") v2 = path;
    else for (const controller of controllers.split(",")) v1.set(controller, path);
  }
  return { v1, v2 };
}

/** True when `path` is the root of, or inside, a filesystem with the given magic number. */
export function isFilesystem(path: string, magic: number): boolean {
  try {
    return statfsSync(path).type === magic;
  } catch {
    return false;
  }
}

let created = 0;

/** A cgroup name no other run, test worker or server shares: pid, counter, random. */
export function uniqueCgroupName(): string {
  created += 1;
  return `toolreg-${process.pid}-${created}-${randomBytes(4).toString("hex")}`;
}

/** The value of `key` in a flat-keyed file such as `memory.events` (`oom_kill 3`); 0 when absent. */
export function readKeyed(file: string, key: string): number {
  const text = readFileSync(file, "utf8");
  const match = new RegExp(`^${key} (\\d+)$`, "m").exec(text);
  return match ? Number(match[1]) : 0;
}

/** A file holding one number, or null when the kernel has no such file (older kernels lack the peaks). */
export function readNumber(file: string): number | null {
  try {
    const value = Number(readFileSync(file, "utf8").trim());
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

/** The pids listed in `cgroup.procs` files, which a cgroup that is already gone lists as none. */
function members(procsFiles: readonly string[]): number[] {
  const pids = new Set<number>();
  for (const file of procsFiles) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      // Gone already.
    }
    for (const line of text.split("\n")) if (line) pids.add(Number(line));
  }
  return [...pids];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGKILLs every process listed until none is. A process that forks between the listing and the kill is
 * caught by the next round; the pids limit bounds how many can appear, so this ends.
 */
export async function killMembers(procsFiles: readonly string[]): Promise<void> {
  for (let round = 0; round < 100; round++) {
    const pids = members(procsFiles);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await sleep(round < 5 ? 1 : 10);
  }
}

/** Removes an empty cgroup, waiting out the moment a killed task still counts as a member (EBUSY). */
export async function removeCgroupDir(dir: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      if (code !== "EBUSY" || attempt >= 50) throw error;
      await sleep(attempt < 10 ? 2 : 20);
    }
  }
}

/** Best-effort synchronous removal of a cgroup no process is in any more (a half-made one, the probe's). */
export function discardCgroupDirSync(dir: string): void {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EBUSY") return; // gone, or left for the next start's sweep
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/**
 * Removes the empty `toolreg-<pid>-…` cgroups a server that has since died left under `parent`; a crash
 * between a command's end and its cgroup's removal leaves one. Cgroups of live processes are not touched.
 */
export function sweepAbandoned(parent: string): void {
  let entries: string[];
  try {
    entries = readdirSync(parent);
  } catch {
    return;
  }
  for (const entry of entries) {
    const owner = /^toolreg-(\d+)-/.exec(entry)?.[1];
    if (owner === undefined || isAlive(Number(owner))) continue;
    try {
      if (readFileSync(join(parent, entry, "cgroup.procs"), "utf8").trim() === "")
        rmdirSync(join(parent, entry));
    } catch {
      // Still busy or already gone: the next start tries again.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
