/**
 * @module The file toolkit: read, list and search under a read root; write under a separate write root.
 * Each tool exists exactly when its root is configured.
 */
import type { ToolModule } from "../../registry/tool-module.js";
import { FileRoot } from "./file-root.js";
import { createFsListTool } from "./fs-list.js";
import { createFsReadTool } from "./fs-read.js";
import { createFsSearchTool } from "./fs-search.js";
import { createFsWriteTool } from "./fs-write.js";

export { FILE_LIMITS } from "./file-limits.js";
export { FileRoot, type OpenStrategy } from "./file-root.js";
export { createFsListTool } from "./fs-list.js";
export { createFsReadTool } from "./fs-read.js";
export { createFsSearchTool } from "./fs-search.js";
export { createFsWriteTool } from "./fs-write.js";
export type { PathRule } from "./path-refusal.js";

export interface FileToolDeps {
  /** Directory fs_read, fs_list and fs_search are confined to; without it they do not exist. */
  readRoot?: string;
  /** Directory fs_write is confined to; must neither be, contain nor lie inside `readRoot`. */
  writeRoot?: string;
}

/**
 * The file tools whose roots are given. Throws if a root is not a directory, or if the two roots overlap:
 * a model that can write where it reads can plant what it will later read back as trusted.
 */
export const fileTools: ToolModule<FileToolDeps> = (deps) => {
  const readRoot = deps.readRoot === undefined ? undefined : FileRoot.open(deps.readRoot, "readRoot");
  const writeRoot = deps.writeRoot === undefined ? undefined : FileRoot.open(deps.writeRoot, "writeRoot");
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
  return [
    ...(readRoot
      ? [createFsReadTool(readRoot), createFsListTool(readRoot), createFsSearchTool(readRoot)]
      : []),
    ...(writeRoot ? [createFsWriteTool(writeRoot)] : []),
  ];
};
