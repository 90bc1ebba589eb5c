/** @module What file_generate runs against: the artifact store it keeps files in. */
import type { ArtifactStore } from "../../ports/artifact-store.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface GenerateEnv {
  artifacts: ArtifactStore;
}

export const generateTool = toolFor<GenerateEnv>();
