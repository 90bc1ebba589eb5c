/** @module `fs_write`: writes a text file under the write root, atomically, never through a symlink. */
import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { type FileHandle, link, lstat, open, rename, unlink } from "node:fs/promises";
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { missing } from "../toolkit/missing.js";
import { FILE_LIMITS } from "./file-limits.js";
import type { FileRoot, OpenDirectory } from "./file-root.js";
import { LEAF_FLAGS } from "./file-root.js";
import { filesTool } from "./files-env.js";
import { errorCode, openParentBeneath } from "./open-beneath.js";
import { badPath, quotePath, refusePath } from "./path-refusal.js";
import { namesDirectory } from "./relative-path.js";
import { readPrefix } from "./text-content.js";

const limits = FILE_LIMITS.write;
/** NAME_MAX on Linux and macOS file systems. */
const MAX_NAME_BYTES = 255;
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

const input = z.object({
  path: z
    .string()
    .min(1)
    .max(FILE_LIMITS.pathChars)
    .describe(
      'file path relative to the write root, e.g. "notes/summary.md"; missing directories are created',
    ),
  content: z.string().max(limits.contentBytes).describe("the text to write (UTF-8)"),
  mode: z
    .enum(["create", "overwrite", "append"])
    .optional()
    .describe(
      '"create" (the default) fails if the file exists; "overwrite" replaces it; "append" adds to its end',
    ),
});

export const fsWriteSpec = filesTool({
  name: "fs_write",
  description: `Writes a UTF-8 text file under the configured write root (a different directory from the read root). Modes: create (default; fails if the file exists), overwrite, append. Missing parent directories are created inside the root. The file is replaced atomically (written to a temporary file, then renamed), and a symbolic link at the target is refused, never followed. At most ${limits.contentBytes / 1024 / 1024} MiB per call; append works on files up to ${limits.appendFileBytes / 1024 / 1024} MiB.`,
  available: (env) => env.writeRoot !== undefined,
  category: "files",
  effect: "internal-write",
  // Mode "overwrite" replaces what was there.
  hints: { destructive: true },
  approval: "policy",
  overrideReason:
    "a model chooses what to write and where, so the host's policy decides each write rather than every write running unasked",
  cost: "io",
  input,
  async run({ path, content, mode = "create" }, _context, { writeRoot: root = missing("a write root") }) {
    if (namesDirectory(path)) throw badPath(path, "names a directory; give a file name");
    const bytes = Buffer.from(content);
    if (bytes.length > limits.contentBytes) {
      throw badPath(path, `content is ${bytes.length} bytes; fs_write takes at most ${limits.contentBytes}`, {
        limit: "contentBytes",
      });
    }
    // Checked before any parent directory is created for a write that cannot happen.
    if (Buffer.byteLength(path.slice(path.lastIndexOf("/") + 1)) > MAX_NAME_BYTES) {
      throw badPath(path, `has a file name longer than ${MAX_NAME_BYTES} bytes`);
    }
    const { directory, name, path: target } = await openParentBeneath(root, path, { create: true });
    try {
      const existing = await lstat(root.childPath(directory, name)).catch(() => undefined);
      if (existing?.isSymbolicLink()) throw refusePath("symlink-target", path, target);
      if (existing?.isDirectory()) throw badPath(path, "is a directory");
      if (existing && !existing.isFile()) throw badPath(path, "is not a regular file");
      if (existing && mode === "create") {
        throw new ToolFailure(
          "precondition_failed",
          `${quotePath(target)} already exists; use mode "overwrite" or "append"`,
          {
            details: { path: target, mode },
          },
        );
      }
      const prefix =
        existing && mode === "append" ? await readForAppend(root, directory, name, path) : undefined;
      const body = prefix ? Buffer.concat([prefix, bytes]) : bytes;
      await replaceAtomically(root, directory, name, body, existing, mode === "create");
      await directory.handle.sync().catch(() => {}); // the rename is durable once the directory is
      const action = !existing ? "created" : mode === "append" ? "appended to" : "overwrote";
      return {
        content: `${action[0]?.toUpperCase()}${action.slice(1)} ${target}: ${bytes.length} bytes written, ${body.length} bytes in the file.`,
        data: { path: target, mode, created: !existing, bytesWritten: bytes.length, size: body.length },
      };
    } finally {
      await directory.handle.close();
    }
  },
});

/** The current bytes of a file to append to, opened without following a link, within the size bound. */
async function readForAppend(
  root: FileRoot,
  directory: OpenDirectory,
  name: string,
  path: string,
): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await open(root.childPath(directory, name), LEAF_FLAGS);
  } catch (error) {
    if (errorCode(error) === "ELOOP") throw refusePath("symlink-target", path);
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw badPath(path, "is not a regular file");
    const { bytes, complete } = await readPrefix(handle, limits.appendFileBytes);
    if (!complete) {
      throw new ToolFailure(
        "precondition_failed",
        `${quotePath(path)} is larger than ${limits.appendFileBytes} bytes, the most fs_write appends to`,
        { details: { path, limit: "appendFileBytes" } },
      );
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

/**
 * Writes `body` to a fresh temporary file beside the target, then moves it into place: `rename` for
 * overwrite and append (it replaces whatever is at the name, a symlink included, without following it),
 * `link` for create (it fails if anything appeared at the name meanwhile, so create never clobbers).
 */
async function replaceAtomically(
  root: FileRoot,
  directory: OpenDirectory,
  name: string,
  body: Buffer,
  existing: Stats | undefined,
  exclusive: boolean,
): Promise<void> {
  // Not derived from the name, so a long name cannot make the temporary one too long.
  const temporary = `.toolreg-write-${randomBytes(8).toString("hex")}.tmp`;
  const temporaryPath = root.childPath(directory, temporary);
  const targetPath = root.childPath(directory, name);
  const handle = await open(temporaryPath, TEMP_FLAGS, 0o644);
  let placed = false;
  try {
    try {
      // Keep an existing file's permissions; the temporary file's come from the umask.
      if (existing) await handle.chmod(existing.mode & 0o777);
      await handle.writeFile(body);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (exclusive) {
      try {
        await link(temporaryPath, targetPath);
      } catch (error) {
        if (errorCode(error) === "EEXIST") {
          throw new ToolFailure(
            "precondition_failed",
            `${quotePath(name)} appeared while it was being created`,
            {
              details: { path: [...directory.segments, name].join("/") },
            },
          );
        }
        throw error;
      }
    } else {
      await rename(temporaryPath, targetPath);
      placed = true;
    }
  } finally {
    if (!placed) await unlink(temporaryPath).catch(() => {});
  }
}
