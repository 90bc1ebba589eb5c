/** @module `FileRoot`: a directory the file tools are confined to, and how a path beneath it is opened. */
import { closeSync, constants, openSync, realpathSync, type Stats, statSync } from "node:fs";
import { type FileHandle, lstat, open } from "node:fs/promises";
import { resolve, sep } from "node:path";
import { refusePath } from "./path-refusal.js";

/**
 * How a child of an open directory is named for the next system call.
 * - `descriptor` (Linux): `/proc/self/fd/<dir>/<name>`. The kernel starts from the directory the
 *   descriptor holds, so this is `openat(dir, name)`: no earlier component is looked up again, and a
 *   symlink swapped in above cannot redirect the call.
 * - `path` (elsewhere): the directory's real path plus the name. Earlier components *are* looked up again;
 *   see `verifyChild` for the check that narrows, but cannot close, that window.
 */
export type OpenStrategy = "descriptor" | "path";

/** An open directory beneath the root, and where it sits (segments from the root). */
export interface OpenDirectory {
  readonly handle: FileHandle;
  readonly segments: readonly string[];
}

export const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** Non-blocking so a FIFO planted in the root cannot hang the call at open. */
export const LEAF_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export class FileRoot {
  /** The root's real path: every check compares against this, never the spelling it was given. */
  readonly real: string;
  /** Absolute spellings a symlink target may use for the root (as given, and real). */
  readonly spellings: readonly string[];
  readonly strategy: OpenStrategy;
  readonly #dev: number;
  readonly #ino: number;

  private constructor(given: string, real: string, stats: Stats, strategy: OpenStrategy) {
    this.real = real;
    this.spellings = given === real ? [real] : [real, given];
    this.strategy = strategy;
    this.#dev = stats.dev;
    this.#ino = stats.ino;
  }

  /** Opens a root for `label` (e.g. "readRoot"); throws an Error a deployment will read if it is unusable. */
  static open(path: string, label: string, strategy?: OpenStrategy): FileRoot {
    const given = resolve(path);
    let real: string;
    let stats: Stats;
    try {
      real = realpathSync.native(given);
      stats = statSync(real);
    } catch (error) {
      throw new Error(
        `fileTools: ${label} ${JSON.stringify(path)} cannot be used: ${(error as Error).message}`,
      );
    }
    if (!stats.isDirectory())
      throw new Error(`fileTools: ${label} ${JSON.stringify(path)} is not a directory`);
    return new FileRoot(given, real, stats, strategy ?? detectStrategy(real, stats));
  }

  /** True when `other` is this root, or one of the two contains the other. */
  overlaps(other: FileRoot): boolean {
    const within = (inner: string, outer: string) =>
      inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
    return within(this.real, other.real) || within(other.real, this.real);
  }

  /** Opens the root itself, refusing if the directory at its path is no longer the one configured. */
  async openRoot(): Promise<OpenDirectory> {
    const handle = await open(this.real, DIRECTORY_FLAGS);
    const stats = await handle.stat();
    if (stats.dev !== this.#dev || stats.ino !== this.#ino) {
      await handle.close();
      throw new Error(`the file root ${this.real} was replaced after the tools were built`);
    }
    return { handle, segments: [] };
  }

  /** The name to pass to a system call for `name` inside `directory`. */
  childPath(directory: OpenDirectory, name: string): string {
    return `${this.directoryPath(directory)}/${name}`;
  }

  /** The name to pass to a system call for the directory itself (to list it). */
  directoryPath(directory: OpenDirectory): string {
    if (this.strategy === "descriptor") return `/proc/self/fd/${directory.handle.fd}`;
    return directory.segments.length === 0 ? this.real : `${this.real}/${directory.segments.join("/")}`;
  }

  /**
   * After opening `name` in `directory` with O_NOFOLLOW, in the `path` strategy: checks that the held
   * directory is still what its path names (a symlink swapped into any ancestor changes that), that the
   * name now leads, without a symlink, to the very file opened, and that the directory still holds.
   * A swap in place for the open and undone for both directory checks, yet in place again for the child
   * check, is not caught: the residue this strategy documents. The `descriptor` strategy needs none of it.
   */
  async verifyChild(directory: OpenDirectory, name: string, opened: Stats, requested: string): Promise<void> {
    if (this.strategy === "descriptor") return;
    await this.verifyDirectory(directory, requested);
    const now = await lstat(this.childPath(directory, name)).catch(() => undefined);
    if (!now || now.isSymbolicLink() || now.dev !== opened.dev || now.ino !== opened.ino) {
      throw refusePath("path-changed", requested, [...directory.segments, name].join("/"));
    }
    await this.verifyDirectory(directory, requested);
  }

  /** In the `path` strategy, checks that the directory's path still leads to the directory held open. */
  async verifyDirectory(directory: OpenDirectory, requested: string): Promise<void> {
    if (this.strategy === "descriptor") return;
    const [held, now] = await Promise.all([
      directory.handle.stat(),
      lstat(this.directoryPath(directory)).catch(() => undefined),
    ]);
    if (!now || now.isSymbolicLink() || now.dev !== held.dev || now.ino !== held.ino) {
      throw refusePath("path-changed", requested, directory.segments.join("/"));
    }
  }
}

/** `descriptor` when `/proc/self/fd/<n>` leads to the directory held by descriptor n, else `path`. */
function detectStrategy(real: string, stats: Stats): OpenStrategy {
  let fd: number | undefined;
  try {
    fd = openSync(real, DIRECTORY_FLAGS);
    const viaProc = statSync(`/proc/self/fd/${fd}`);
    return viaProc.dev === stats.dev && viaProc.ino === stats.ino ? "descriptor" : "path";
  } catch {
    return "path";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
