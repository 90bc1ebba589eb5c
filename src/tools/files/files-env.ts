/** @module What the file tools run against: the read root, the write root, or both. */
import { toolFor } from "../toolkit/define-toolkit.js";
import type { FileRoot } from "./file-root.js";

export interface FilesEnv {
  readRoot?: FileRoot | undefined;
  writeRoot?: FileRoot | undefined;
}

export const filesTool = toolFor<FilesEnv>();
