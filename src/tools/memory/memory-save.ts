/** @module `memory_save`: keeps one short note in the caller's own memory, for later runs to find. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { MEMORY_LIMITS } from "../../ports/memory-store.js";
import { memoryTool, ownerOf } from "./memory-env.js";

/** Control characters but tab, line feed and carriage return. */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

const input = z.object({
  text: z
    .string()
    .trim()
    .min(1)
    .max(MEMORY_LIMITS.textBytes)
    // Text, not bytes: PostgreSQL's text type refuses a NUL, and a control character has no place in a note.
    .refine((text) => !CONTROL.test(text), "remove control characters (tab and line breaks are fine)")
    .describe("the fact to remember, self-contained: it is read later without this conversation"),
  tags: z
    .array(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9_-]*$/, "lower-case letters, digits, - and _")
        .max(MEMORY_LIMITS.tagChars),
    )
    .max(MEMORY_LIMITS.tags)
    .optional()
    .describe('a few short labels that a later search may use, e.g. ["billing", "preferences"]'),
});

const output = z.object({ id: z.string(), createdAt: z.number(), tags: z.array(z.string()) });

export const memorySaveSpec = memoryTool({
  name: "memory_save",
  description: `Saves one short note to the memory of the person you are working for, so later runs can find it with memory_search: a preference, a decision, a fact about their work. Only they and their agents see it; colleagues do not. Write it self-contained (who, what, when), at most ${MEMORY_LIMITS.textBytes / 1024} KiB. Never save secrets, passwords or keys. Each person keeps at most ${MEMORY_LIMITS.memoriesPerPrincipal.toLocaleString("en-US")} memories; when full, forget some with memory_forget first.`,
  category: "knowledge",
  effect: "internal-write",
  input,
  output,
  async run({ text, tags }, context, { memories, now }) {
    const outcome = await memories.save(ownerOf(context), { text, ...(tags ? { tags } : {}), at: now() });
    if (!outcome.saved) {
      throw new ToolFailure(
        outcome.reason === "full" ? "precondition_failed" : "invalid_input",
        outcome.reason === "full"
          ? `nothing saved: this person keeps ${outcome.limit} memories, the most allowed. Find ones no longer needed with memory_search, delete them with memory_forget, then save again.`
          : `nothing saved: the text is over ${outcome.limit} bytes of UTF-8; save a shorter note`,
        { details: { reason: outcome.reason, limit: outcome.limit } },
      );
    }
    const { id, createdAt, tags: kept } = outcome.memory;
    return { content: `Saved memory ${id}.`, data: { id, createdAt, tags: kept } };
  },
});
