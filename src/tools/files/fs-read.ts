/** @module `fs_read`: a text file under the read root, whole or by line range, bounded and fenced. */
import { z } from "zod";
import { missing } from "../toolkit/missing.js";
import { FILE_LIMITS } from "./file-limits.js";
import { filesTool } from "./files-env.js";
import { openBeneath } from "./open-beneath.js";
import { badPath } from "./path-refusal.js";
import { decodeText, readPrefix } from "./text-content.js";
import { cutAtLine } from "./text-cut.js";

const { scanBytes, returnBytes } = FILE_LIMITS.read;

const input = z
  .object({
    path: z
      .string()
      .min(1)
      .max(FILE_LIMITS.pathChars)
      .describe('path relative to the read root, e.g. "src/index.ts"'),
    startLine: z.number().int().min(1).optional().describe("first line to return (1-based); 1 when omitted"),
    endLine: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("last line to return (inclusive); the end when omitted"),
  })
  .refine((value) => (value.endLine ?? Number.POSITIVE_INFINITY) >= (value.startLine ?? 1), {
    message: "endLine must not be before startLine",
    path: ["endLine"],
  });

/** Which bound cut the text short: the returned bytes, or the part of the file read at all. */
export type ReadLimit = "returnBytes" | "scanBytes";

export const fsReadSpec = filesTool({
  name: "fs_read",
  description: `Reads a UTF-8 text file under the configured read root, whole or a line range (startLine/endLine, 1-based, inclusive). Paths are relative to the root; absolute paths, ".." and symbolic links leading out of the root are refused. Binary files are refused. Returns at most ${returnBytes / 1024} KiB of text (read a line range for more) from the first ${scanBytes / 1024 / 1024} MiB of the file; a cut is marked truncated and names the bound. Use fs_list to find files and fs_search to find text.`,
  available: (env) => env.readRoot !== undefined,
  category: "files",
  effect: "read",
  cost: "io",
  input,
  limits: { outputBytes: returnBytes * 2 },
  async run({ path, startLine = 1, endLine }, _context, { readRoot: root = missing("a read root") }) {
    const opened = await openBeneath(root, path);
    try {
      if (opened.stats.isDirectory()) throw badPath(path, "is a directory; use fs_list to see what it holds");
      if (!opened.stats.isFile()) throw badPath(path, "is not a regular file");
      const { bytes, complete } = await readPrefix(opened.handle, scanBytes);
      const text = decodeText(bytes, complete);
      if (text === undefined) {
        throw badPath(path, `is a binary file (${opened.stats.size} bytes); fs_read returns text only`, {
          binary: true,
          size: opened.stats.size,
        });
      }
      const lines = text === "" ? [] : text.split("\n");
      // A final newline ends the last line; it does not start another. A prefix's last line is partial.
      if (complete && lines[lines.length - 1] === "") lines.pop();
      if (!complete && lines.length > 1) lines.pop();
      const totalLines = complete ? lines.length : undefined;
      if (startLine > Math.max(lines.length, 1)) {
        throw complete
          ? badPath(path, `has ${lines.length} lines; startLine ${startLine} is past the end`, {
              totalLines: lines.length,
            })
          : badPath(
              path,
              `startLine ${startLine} is beyond the first ${scanBytes} bytes, which is all fs_read scans`,
              {
                limit: "scanBytes",
              },
            );
      }
      const wanted = lines.slice(startLine - 1, endLine ?? lines.length);
      let limit: ReadLimit | undefined;
      // Lines past what was scanned were asked for but not seen.
      if (!complete && (endLine === undefined || endLine > lines.length)) limit = "scanBytes";
      const cut = cutAtLine(wanted, returnBytes);
      if (cut.lineCount < wanted.length || cut.partial) limit = "returnBytes";
      const lastLine = startLine + cut.lineCount - 1;
      return {
        content: cut.text,
        data: {
          path: opened.path,
          size: opened.stats.size,
          startLine,
          endLine: lastLine,
          totalLines: totalLines ?? null,
          truncated: limit !== undefined,
          limit: limit ?? null,
        },
        truncated: limit !== undefined,
        provenance: { source: `file:${opened.path}`, trusted: false },
      };
    } finally {
      await opened.handle.close();
    }
  },
});
