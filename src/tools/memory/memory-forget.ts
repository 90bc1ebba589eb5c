/** @module `memory_forget`: deletes one of the caller's own memories by id. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { memoryTool, ownerOf } from "./memory-env.js";

const input = z.object({
  id: z
    .string()
    .regex(/^mem_[0-9a-f]{16}$/, "a memory id, as memory_search returns it")
    .describe('the memory\'s id, e.g. "mem_3f2a9c0e1b7d4a65", from memory_search'),
});

export const memoryForgetSpec = memoryTool({
  name: "memory_forget",
  description:
    "Deletes one memory of the person you are working for, by the id memory_search gave; it cannot be undone. Use it when a memory is wrong, out of date, or the person asks you to forget it, or to make room when memory_save says the memory is full. Only their own memories can be deleted.",
  category: "knowledge",
  // Internal-write, not destructive: it deletes a note in the caller's own scratch memory, which only its
  // own agents wrote and read, never a record a colleague or a system relies on. Destructive would park every
  // forget for a human's approval, and a memory kept wrong is worse than one forgotten.
  effect: "internal-write",
  // It does delete, and says so to an MCP client (destructiveHint), with no approval asked of a human.
  hints: { destructive: true },
  input,
  async run({ id }, context, { memories }) {
    if (!(await memories.forget(ownerOf(context), id))) {
      throw new ToolFailure(
        "precondition_failed",
        `no memory ${id} to forget: it was forgotten already or is not this person's; memory_search shows the ids`,
      );
    }
    return { content: `Forgot memory ${id}.`, data: { id, forgotten: true } };
  },
});
