/**
 * @module The memory toolkit: notes a person's agents keep across runs, in the deployment's memory store,
 * scoped to the caller's tenant and principal by the store itself. With no store on the host its tools are not served.
 */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { memoryForgetSpec } from "./memory-forget.js";
import { memorySaveSpec } from "./memory-save.js";
import { memorySearchSpec } from "./memory-search.js";

export const memoryToolkit = defineToolkit({
  id: "memory",
  version: "1.0.0",
  package: "toolreg",
  description: "Each person's own memory across runs: save a note, search it, forget one.",
  config: z.strictObject({}),
  auth: { kind: "none" },
  tools: [memorySaveSpec, memorySearchSpec, memoryForgetSpec],
  bind: (_config, host) => (host.memories ? { memories: host.memories, now: Date.now } : undefined),
});
