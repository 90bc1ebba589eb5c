/** @module The memory toolkit: each principal's notes across runs, kept in a MemoryStore. */
import type { MemoryStore } from "../../ports/memory-store.js";
import type { ToolModule } from "../../registry/tool-module.js";
import { memoryToolkit } from "./toolkit.js";

export { memoryToolkit } from "./toolkit.js";

export interface MemoryToolDeps {
  /** Where each principal's memories are kept; without one there is no memory_save, memory_search or memory_forget. */
  memories?: MemoryStore;
}

export const memoryTools: ToolModule<MemoryToolDeps> = (deps) =>
  deps.memories ? memoryToolkit.withEnv({ memories: deps.memories, now: Date.now }) : [];
