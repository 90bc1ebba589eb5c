/**
 * @module The file toolkit: read, list and search under a read root; write under a separate write root.
 * Each tool exists exactly when its root is configured.
 */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { FileRoot } from "./file-root.js";
import type { FilesEnv } from "./files-env.js";
import { fsListSpec } from "./fs-list.js";
import { fsReadSpec } from "./fs-read.js";
import { fsSearchSpec } from "./fs-search.js";
import { fsWriteSpec } from "./fs-write.js";

export const FilesConfigSchema = z.strictObject({
  readRoot: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "the directory fs_read, fs_list and fs_search are confined to" }),
  writeRoot: z.string().min(1).optional().meta({
    description: "the directory fs_write is confined to; it may neither be, contain nor lie inside readRoot",
  }),
});

export const filesToolkit = defineToolkit({
  id: "files",
  version: "1.0.0",
  package: "toolreg",
  description: "Reads, lists and searches files under a read root, and writes under a separate write root.",
  config: FilesConfigSchema,
  auth: { kind: "none" },
  tools: [fsReadSpec, fsListSpec, fsSearchSpec, fsWriteSpec],
  reviewedOverrides: [{ tool: "fs_write", field: "approval" }],
  bind: ({ readRoot, writeRoot }) =>
    readRoot === undefined && writeRoot === undefined ? undefined : openFileRoots(readRoot, writeRoot),
});

/** Opens the roots; refuses a write root that is, contains or lies inside the read root. */
export function openFileRoots(readPath: string | undefined, writePath: string | undefined): FilesEnv {
  const readRoot = readPath === undefined ? undefined : FileRoot.open(readPath, "readRoot");
  const writeRoot = writePath === undefined ? undefined : FileRoot.open(writePath, "writeRoot");
  if (readRoot && writeRoot?.overlaps(readRoot)) {
    const relation =
      readRoot.real === writeRoot.real
        ? "are the same directory"
        : writeRoot.real.startsWith(readRoot.real)
          ? "overlap: writeRoot lies inside readRoot"
          : "overlap: readRoot lies inside writeRoot";
    throw new Error(
      `fileTools: readRoot ${JSON.stringify(readRoot.real)} and writeRoot ${JSON.stringify(writeRoot.real)} ${relation}; writes need a root of their own`,
    );
  }
  return { readRoot, writeRoot };
}
