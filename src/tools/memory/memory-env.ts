/** @module What the memory tools run against: the store of each principal's memories, and the clock saves are dated by. */
import type { MemoryOwner, MemoryStore } from "../../ports/memory-store.js";
import type { ExecutionContext } from "../../seam/context.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface MemoryEnv {
  memories: MemoryStore;
  /** Epoch milliseconds. */
  now: () => number;
}

export const memoryTool = toolFor<MemoryEnv>();

/** Whose memories a call reaches: the caller's own, from the context the seam built, never from the model's input. */
export const ownerOf = ({ tenantId, principalId }: ExecutionContext): MemoryOwner => ({
  tenantId,
  principalId,
});
