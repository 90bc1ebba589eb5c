/** @module `fs_search`: literal text in the files under a path of the read root, bounded and fenced. */
import type { Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { z } from "zod";
import { missing } from "../toolkit/missing.js";
import { openChild, readEntries } from "./directory-entries.js";
import { FILE_LIMITS } from "./file-limits.js";
import type { OpenDirectory } from "./file-root.js";
import { filesTool } from "./files-env.js";
import { openBeneath } from "./open-beneath.js";
import { decodeText, readPrefix } from "./text-content.js";

const limits = FILE_LIMITS.search;

const input = z.object({
  query: z
    .string()
    .min(1)
    .max(limits.queryChars)
    .refine((value) => !value.includes("\n"), "must be one line")
    .describe("the literal text to find (not a regular expression)"),
  path: z
    .string()
    .max(FILE_LIMITS.pathChars)
    .optional()
    .describe("file or directory relative to the read root; the whole root when omitted"),
  ignoreCase: z.boolean().optional().describe("match regardless of letter case; false when omitted"),
  maxMatches: z
    .number()
    .int()
    .min(1)
    .max(limits.maxMatches)
    .optional()
    .describe(`the most matching lines to return; ${limits.defaultMatches} when omitted`),
});

/** Which bound stopped the search. */
export type SearchLimit = "matches" | "files" | "bytes" | "depth" | "directoryEntries";

export interface SearchMatch {
  path: string;
  line: number;
  column: number;
  text: string;
}

export const fsSearchSpec = filesTool({
  name: "fs_search",
  description: `Finds a literal piece of text (not a regular expression) in the text files under a file or directory of the configured read root, and returns each matching line with its path, line and column. Binary files and symbolic links are skipped. Bounded: ${limits.files} files, ${limits.bytes / 1024 / 1024} MiB read, ${limits.depth} directory levels, and maxMatches lines (at most ${limits.maxMatches}); the result says which bound stopped it, so a narrower path or query can finish the job.`,
  available: (env) => env.readRoot !== undefined,
  category: "files",
  effect: "read",
  cost: "io",
  input,
  limits: { outputBytes: 512 * 1024 },
  async run(
    { query, path = ".", ignoreCase = false, maxMatches = limits.defaultMatches },
    context,
    { readRoot: root = missing("a read root") },
  ) {
    const needle = ignoreCase ? query.toLowerCase() : query;
    const matches: SearchMatch[] = [];
    const stoppedBy = new Set<SearchLimit>();
    const skipped = { binary: 0, symlinks: 0, other: 0 };
    let filesScanned = 0;
    let bytesScanned = 0;
    let filesMatched = 0;

    /** Searches one open file; false once a bound says stop. */
    const searchFile = async (handle: FileHandle, stats: Stats, filePath: string): Promise<boolean> => {
      if (filesScanned >= limits.files) {
        stoppedBy.add("files");
        return false;
      }
      const budget = limits.bytes - bytesScanned;
      if (budget <= 0) {
        stoppedBy.add("bytes");
        return false;
      }
      filesScanned++;
      const { bytes, complete } = await readPrefix(handle, Math.min(budget, stats.size));
      bytesScanned += bytes.length;
      const text = decodeText(bytes, complete);
      if (text === undefined) {
        skipped.binary++;
        return true;
      }
      let found = false;
      const lines = text.split("\n");
      for (let index = 0; index < lines.length; index++) {
        const line = lines[index] as string;
        const column = (ignoreCase ? line.toLowerCase() : line).indexOf(needle);
        if (column === -1) continue;
        if (matches.length >= maxMatches) {
          stoppedBy.add("matches");
          return false;
        }
        if (!found) filesMatched++;
        found = true;
        matches.push({ path: filePath, line: index + 1, column: column + 1, text: excerpt(line, column) });
      }
      // Cut short by the byte budget rather than by the file ending.
      if (!complete && budget < stats.size) {
        stoppedBy.add("bytes");
        return false;
      }
      return true;
    };

    /** Searches a directory's files and, depth allowing, its subdirectories; false once a bound says stop. */
    const searchDirectory = async (directory: OpenDirectory, depth: number): Promise<boolean> => {
      const { entries, complete } = await readEntries(root, directory, limits.directoryEntries);
      if (!complete) stoppedBy.add("directoryEntries");
      for (const entry of entries) {
        context.signal.throwIfAborted();
        if (entry.type === "symlink") {
          skipped.symlinks++;
          continue;
        }
        if (entry.type === "other") {
          skipped.other++;
          continue;
        }
        if (entry.type === "directory" && depth >= limits.depth) {
          stoppedBy.add("depth");
          continue;
        }
        const child = await openChild(root, directory, entry.name, entry.type);
        if (!child) {
          skipped.other++;
          continue;
        }
        const segments = [...directory.segments, entry.name];
        try {
          const more =
            entry.type === "directory"
              ? await searchDirectory({ handle: child.handle, segments }, depth + 1)
              : await searchFile(child.handle, child.stats, segments.join("/"));
          if (!more) return false;
        } finally {
          await child.handle.close();
        }
      }
      return true;
    };

    const opened = await openBeneath(root, path);
    try {
      if (opened.stats.isDirectory()) {
        const segments = opened.path === "" ? [] : opened.path.split("/");
        await searchDirectory({ handle: opened.handle, segments }, 0);
      } else if (opened.stats.isFile()) {
        await searchFile(opened.handle, opened.stats, opened.path);
      } else {
        skipped.other++;
      }
    } finally {
      await opened.handle.close();
    }

    const truncated = stoppedBy.size > 0;
    const summary =
      `${matches.length} matching line${matches.length === 1 ? "" : "s"} for ${JSON.stringify(query)} in ${filesMatched} file${filesMatched === 1 ? "" : "s"}` +
      ` (scanned ${filesScanned} files, ${bytesScanned} bytes).` +
      (truncated ? ` Stopped by ${[...stoppedBy].join(", ")}: narrow the path or the query.` : "");
    return {
      content: [
        summary,
        ...matches.map((match) => `${match.path}:${match.line}:${match.column}: ${match.text}`),
      ].join("\n"),
      data: { query, matches, filesScanned, bytesScanned, skipped, truncated, stoppedBy: [...stoppedBy] },
      truncated,
      provenance: { source: `files:${opened.path === "" ? "." : opened.path}`, trusted: false },
    };
  },
});

/** The matching line, or a window of it around the match when it is long. */
function excerpt(line: string, column: number): string {
  const text = line.endsWith("\r") ? line.slice(0, -1) : line;
  if (text.length <= limits.lineChars) return text;
  const start = Math.max(0, Math.min(column - 60, text.length - limits.lineChars));
  const window = text.slice(start, start + limits.lineChars);
  return `${start > 0 ? "…" : ""}${window}${start + limits.lineChars < text.length ? "…" : ""}`;
}
