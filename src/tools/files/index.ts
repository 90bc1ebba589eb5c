/**
 * @module The file toolkit: read, list and search under a read root; write under a separate write root.
 * Each tool exists exactly when its root is configured.
 */
import type { ToolModule } from "../../registry/tool-module.js";
import { filesToolkit, openFileRoots } from "./toolkit.js";

export { FILE_LIMITS } from "./file-limits.js";
export { FileRoot, type OpenStrategy } from "./file-root.js";
export type { PathRule } from "./path-refusal.js";
export { filesToolkit } from "./toolkit.js";

export interface FileToolDeps {
  /** Directory fs_read, fs_list and fs_search are confined to; without it they do not exist. */
  readRoot?: string;
  /** Directory fs_write is confined to; must neither be, contain nor lie inside `readRoot`. */
  writeRoot?: string;
}

export const fileTools: ToolModule<FileToolDeps> = (deps) =>
  filesToolkit.withEnv(openFileRoots(deps.readRoot, deps.writeRoot));
