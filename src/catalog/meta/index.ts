/** @module The meta-tools: search the catalogue, learn a schema, call what was found, page a cut output. */
import type { AnyTool } from "../../registry/registry.js";
import type { ToolModule } from "../../registry/tool-module.js";
import { createExecuteTool } from "./execute-tool.js";
import { createFindTools } from "./find-tools.js";
import { createLearnTools } from "./learn-tools.js";
import type { MetaToolDeps } from "./meta-deps.js";
import { createReadToolOutput } from "./read-tool-output.js";

export type { FoundTool } from "./find-tools.js";
export type { MetaToolDeps } from "./meta-deps.js";

export const metaTools: ToolModule<MetaToolDeps> = (deps) => {
  const tools: AnyTool[] = [];
  if (deps.seam) {
    tools.push(
      createFindTools(deps.seam, deps.embeddings, deps.clock),
      createLearnTools(deps.seam),
      createExecuteTool(deps.seam),
    );
  }
  if (deps.outputs) tools.push(createReadToolOutput(deps.outputs));
  return tools;
};
