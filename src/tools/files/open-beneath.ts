/**
 * @module `openBeneath` and `openParentBeneath`: resolve a relative path one component at a time from an
 * open root, never letting the kernel follow a symlink; a symlink is read and resolved here instead.
 */
import type { Stats } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readlink } from "node:fs/promises";
import { DIRECTORY_FLAGS, type FileRoot, LEAF_FLAGS, type OpenDirectory } from "./file-root.js";
import { badPath, refusePath } from "./path-refusal.js";
import { splitRelativePath } from "./relative-path.js";

/** Symlinks followed in one resolution (Linux allows 40). */
const MAX_LINK_HOPS = 32;
/** Steps in one resolution, counting retries after a component changed under us. */
const MAX_STEPS = 4_096;

/** A file or directory opened beneath the root, and its canonical path from the root. */
export interface OpenedEntry {
  readonly handle: FileHandle;
  readonly stats: Stats;
  /** Relative to the root, `/`-separated; `""` is the root itself. */
  readonly path: string;
}

/**
 * Opens what `requested` names. Symlinks (at any component, the last included) are followed only while
 * they stay inside the root: each is read, and its target resolved against the segments walked so far.
 * The caller closes the handle.
 */
export async function openBeneath(root: FileRoot, requested: string): Promise<OpenedEntry> {
  const walked = await walk(root, requested, splitRelativePath(requested), { openLast: true, create: false });
  if ("leaf" in walked) return walked.leaf;
  const stats = await walked.directory.handle.stat();
  return { handle: walked.directory.handle, stats, path: walked.directory.segments.join("/") };
}

/**
 * Opens the directory that will hold `requested`'s last component, creating missing directories (inside
 * the root only) when asked. The last component itself is returned by name and never resolved: a writer
 * must not follow a symlink there. The caller closes the directory.
 */
export async function openParentBeneath(
  root: FileRoot,
  requested: string,
  options: { create: boolean },
): Promise<{ directory: OpenDirectory; name: string; path: string }> {
  const segments = splitRelativePath(requested);
  const name = segments.pop();
  if (name === undefined) throw badPath(requested, "names the root, not a file");
  const walked = await walk(root, requested, segments, { openLast: false, create: options.create });
  if ("leaf" in walked) throw new Error("unreachable: a parent walk never opens a leaf");
  return { directory: walked.directory, name, path: [...walked.directory.segments, name].join("/") };
}

type Walked = { directory: OpenDirectory } | { leaf: OpenedEntry };

async function walk(
  root: FileRoot,
  requested: string,
  initial: string[],
  options: { openLast: boolean; create: boolean },
): Promise<Walked> {
  let pending = initial;
  let directory = await root.openRoot();
  let hops = 0;
  try {
    for (let step = 0; pending.length > 0; step++) {
      if (step > MAX_STEPS) throw refusePath("path-changed", requested);
      const name = pending[0] as string;
      const here = [...directory.segments, name];
      const last = pending.length === 1 && options.openLast;
      const childPath = root.childPath(directory, name);
      let handle: FileHandle;
      try {
        handle = await open(childPath, last ? LEAF_FLAGS : DIRECTORY_FLAGS);
      } catch (error) {
        const code = errorCode(error);
        if (code === "ENOENT" && options.create && !last) {
          await mkdir(childPath, 0o755).catch((cause: unknown) => {
            if (errorCode(cause) !== "EEXIST") throw cause;
          });
          continue; // open what is there now; if a symlink raced in, the branch below judges it
        }
        if (code === "ELOOP" || code === "ENOTDIR" || code === "EMLINK") {
          const link = await lstat(childPath).catch(() => undefined);
          if (link?.isSymbolicLink()) {
            if (++hops > MAX_LINK_HOPS) throw refusePath("symlink-loop", requested, here.join("/"));
            const target = await readlink(childPath).catch(() => undefined);
            if (target === undefined) continue; // replaced since the lstat: look again
            const resolved = resolveLinkTarget(root, directory.segments, target);
            if (!resolved) throw refusePath("symlink-escape", requested, here.join("/"));
            // Restart from the root along the target: nothing is looked up through the link itself.
            pending = [...resolved, ...pending.slice(1)];
            await directory.handle.close();
            directory = await root.openRoot();
            continue;
          }
          // No longer a symlink (or gone) since the open refused it: look again.
          if (!link || code === "ELOOP") continue;
          if (code === "ENOTDIR") {
            throw badPath(requested, `goes through ${here.join("/")}, which is not a directory`);
          }
        }
        if (code === "ENAMETOOLONG")
          throw badPath(requested, "has a name longer than the file system allows");
        if (code === "EACCES" || code === "EPERM" || code === "ENXIO") {
          throw badPath(requested, `cannot be opened at ${JSON.stringify(here.join("/"))} (${code})`, {
            code,
          });
        }
        if (code === "ENOENT") {
          throw badPath(requested, `does not exist (no ${JSON.stringify(here.join("/"))} in the root)`, {
            missing: here.join("/"),
          });
        }
        throw error;
      }
      let stats: Stats;
      try {
        stats = await handle.stat();
        await root.verifyChild(directory, name, stats, requested);
      } catch (error) {
        await handle.close();
        throw error;
      }
      pending = pending.slice(1);
      await directory.handle.close();
      if (last) return { leaf: { handle, stats, path: here.join("/") } };
      directory = { handle, segments: here };
    }
    return { directory };
  } catch (error) {
    await directory.handle.close().catch(() => {});
    throw error;
  }
}

/**
 * Where a symlink found in `base` leads, as segments from the root; `undefined` if it leaves the root.
 * Purely lexical: `base` holds only real directories already walked, so `..` in the target pops one.
 */
export function resolveLinkTarget(
  root: FileRoot,
  base: readonly string[],
  target: string,
): string[] | undefined {
  let segments: string[];
  let rest: string;
  if (target.startsWith("/")) {
    const spelling = root.spellings.find((prefix) => target === prefix || target.startsWith(`${prefix}/`));
    if (spelling === undefined) return undefined;
    segments = [];
    rest = target.slice(spelling.length);
  } else {
    segments = [...base];
    rest = target;
  }
  for (const part of rest.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else {
      segments.push(part);
    }
  }
  return segments;
}

export function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}
