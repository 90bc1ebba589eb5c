/** @module The in-process memory store against the memory store conformance suite. */
import { CONFORMANCE_MAX_MEMORIES, runMemoryStoreConformance } from "../../ports/memory-store.conformance.js";
import { createMemoryMemoryStore } from "./memories.js";

runMemoryStoreConformance("memory", async () => ({
  store: createMemoryMemoryStore({ maxMemories: CONFORMANCE_MAX_MEMORIES }),
  cleanup: async () => {},
}));
