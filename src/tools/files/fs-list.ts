/** @module `fs_list`: the entries of one directory under the read root, optionally recursive, bounded. */
import { lstat } from "node:fs/promises";
import { z } from "zod";
import { missing } from "../toolkit/missing.js";
import { type DirectoryEntry, type EntryType, openChild, readEntries } from "./directory-entries.js";
import { FILE_LIMITS } from "./file-limits.js";
import type { OpenDirectory } from "./file-root.js";
import { filesTool } from "./files-env.js";
import { openBeneath } from "./open-beneath.js";
import { badPath } from "./path-refusal.js";

const limits = FILE_LIMITS.list;

const input = z.object({
  path: z
    .string()
    .max(FILE_LIMITS.pathChars)
    .optional()
    .describe('directory relative to the read root; the root itself when omitted or "."'),
  recursive: z
    .boolean()
    .optional()
    .describe("also list subdirectories, down to maxDepth; false when omitted"),
  maxDepth: z
    .number()
    .int()
    .min(1)
    .max(limits.maxDepth)
    .optional()
    .describe(`levels to descend when recursive; ${limits.defaultDepth} when omitted`),
  maxEntries: z
    .number()
    .int()
    .min(1)
    .max(limits.maxEntries)
    .optional()
    .describe(`the most entries to return; ${limits.defaultEntries} when omitted`),
});

/** Which bound stopped the listing. */
export type ListLimit = "maxEntries" | "maxDepth" | "scannedEntries";

export interface ListedEntry {
  path: string;
  type: EntryType;
  size?: number;
}

export const fsListSpec = filesTool({
  name: "fs_list",
  description: `Lists a directory under the configured read root: names, kinds (file, directory, symlink, other) and file sizes, sorted by name. With recursive, descends up to maxDepth levels (at most ${limits.maxDepth}). Symbolic links are listed, never followed. Returns at most ${limits.maxEntries} entries; a cut is marked truncated and names the bound. Paths are relative to the root.`,
  available: (env) => env.readRoot !== undefined,
  category: "files",
  effect: "read",
  cost: "io",
  input,
  limits: { outputBytes: 256 * 1024 },
  async run(
    { path = ".", recursive = false, maxDepth = limits.defaultDepth, maxEntries = limits.defaultEntries },
    context,
    { readRoot: root = missing("a read root") },
  ) {
    const opened = await openBeneath(root, path);
    if (!opened.stats.isDirectory()) {
      await opened.handle.close();
      throw badPath(path, "is not a directory; use fs_read for a file");
    }
    const listed: ListedEntry[] = [];
    const stoppedBy = new Set<ListLimit>();
    let scanned = 0;
    const depthLimit = recursive ? maxDepth : 1;

    /** Lists `directory`; false once a bound says stop. */
    const visit = async (directory: OpenDirectory, depth: number): Promise<boolean> => {
      const { entries, complete } = await readEntries(root, directory, limits.scannedEntries - scanned);
      scanned += entries.length;
      for (const entry of entries) {
        context.signal.throwIfAborted();
        if (listed.length >= maxEntries) {
          stoppedBy.add("maxEntries");
          return false;
        }
        listed.push(await describe(directory, entry));
        if (entry.type !== "directory" || !recursive) continue;
        if (depth >= depthLimit) {
          stoppedBy.add("maxDepth");
          continue;
        }
        const child = await openChild(root, directory, entry.name, "directory");
        if (!child) continue;
        try {
          const more = await visit(
            { handle: child.handle, segments: [...directory.segments, entry.name] },
            depth + 1,
          );
          if (!more) return false;
        } finally {
          await child.handle.close();
        }
      }
      if (!complete) stoppedBy.add("scannedEntries");
      return complete;
    };
    const describe = async (directory: OpenDirectory, entry: DirectoryEntry): Promise<ListedEntry> => {
      const listedPath = [...directory.segments, entry.name].join("/");
      if (entry.type !== "file") return { path: listedPath, type: entry.type };
      const stats = await lstat(root.childPath(directory, entry.name)).catch(() => undefined);
      return stats
        ? { path: listedPath, type: "file", size: stats.size }
        : { path: listedPath, type: "file" };
    };

    try {
      await visit({ handle: opened.handle, segments: opened.path === "" ? [] : opened.path.split("/") }, 1);
    } finally {
      await opened.handle.close();
    }
    const truncated = stoppedBy.size > 0;
    const lines = listed.map((entry) =>
      entry.type === "directory"
        ? `${entry.path}/`
        : entry.type === "file"
          ? `${entry.path} (${entry.size ?? "?"} bytes)`
          : `${entry.path} (${entry.type})`,
    );
    const where = opened.path === "" ? "the root" : JSON.stringify(opened.path);
    const summary = `${listed.length} entr${listed.length === 1 ? "y" : "ies"} in ${where}.${truncated ? ` Stopped by ${[...stoppedBy].join(", ")}.` : ""}`;
    return {
      content: [summary, ...lines].join("\n"),
      data: { path: opened.path, entries: listed, truncated, stoppedBy: [...stoppedBy] },
      truncated,
    };
  },
});
