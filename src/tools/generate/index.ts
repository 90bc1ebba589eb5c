/** @module The generate toolkit: files made from structured input, kept in an artifact store. */
import type { ArtifactStore } from "../../ports/artifact-store.js";
import type { ToolModule } from "../../registry/tool-module.js";
import { generateToolkit } from "./toolkit.js";

export { FILE_GENERATE_LIMITS } from "./file-generate.js";
export { generateToolkit } from "./toolkit.js";

export interface GenerateToolDeps {
  /** Where generated files go; without one there is no file_generate. */
  artifacts?: ArtifactStore;
}

export const generateTools: ToolModule<GenerateToolDeps> = (deps) =>
  deps.artifacts ? generateToolkit.withEnv({ artifacts: deps.artifacts }) : [];
