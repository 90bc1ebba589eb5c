/** @module Reading an open directory and opening its children, without following a symlink. */
import type { Stats } from "node:fs";
import { type FileHandle, open, opendir } from "node:fs/promises";
import { DIRECTORY_FLAGS, type FileRoot, LEAF_FLAGS, type OpenDirectory } from "./file-root.js";
import { refusePath } from "./path-refusal.js";

export type EntryType = "file" | "directory" | "symlink" | "other";

export interface DirectoryEntry {
  readonly name: string;
  readonly type: EntryType;
}

/** Up to `maxEntries` entries of a directory, sorted by name so results are the same call after call. */
export async function readEntries(
  root: FileRoot,
  directory: OpenDirectory,
  maxEntries: number,
): Promise<{ entries: DirectoryEntry[]; complete: boolean }> {
  const entries: DirectoryEntry[] = [];
  let complete = true;
  const requested = directory.segments.join("/");
  // The `path` strategy lists by name, so it checks the name still leads to the held directory around it.
  await root.verifyDirectory(directory, requested);
  // The type comes from the directory entry itself (no stat), so a symlink is reported, not followed.
  const listing = await opendir(root.directoryPath(directory), { bufferSize: 64 }).catch(() => {
    throw refusePath("path-changed", requested);
  });
  for await (const entry of listing) {
    if (entries.length >= maxEntries) {
      complete = false;
      break;
    }
    const type: EntryType = entry.isSymbolicLink()
      ? "symlink"
      : entry.isDirectory()
        ? "directory"
        : entry.isFile()
          ? "file"
          : "other";
    entries.push({ name: entry.name, type });
  }
  await root.verifyDirectory(directory, requested);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries, complete };
}

/**
 * Opens a child found while walking a tree: a directory to descend into or a file to read. Anything
 * else — a symlink, or an entry that changed kind since it was listed — is `undefined`, and skipped.
 */
export async function openChild(
  root: FileRoot,
  directory: OpenDirectory,
  name: string,
  kind: "file" | "directory",
): Promise<{ handle: FileHandle; stats: Stats } | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(root.childPath(directory, name), kind === "directory" ? DIRECTORY_FLAGS : LEAF_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const stats = await handle.stat();
    await root.verifyChild(directory, name, stats, [...directory.segments, name].join("/"));
    if (kind === "directory" ? stats.isDirectory() : stats.isFile()) return { handle, stats };
  } catch {
    // A changed entry is skipped like a symlink: the walk goes on with the rest.
  }
  await handle.close();
  return undefined;
}
