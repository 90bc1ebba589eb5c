/** @module `read_tool_output`: pages through an output that was over its tool's cap, kept whole by the seam. */
import { z } from "zod";
import { defineTool } from "../../declaration/define-tool.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import { OUTPUT_REF, type OutputStore } from "../../seam/output-store.js";
import { pageText } from "../../text/page-text.js";

const MAX_PAGE = 32_000;

export function createReadToolOutput(outputs: OutputStore) {
  return defineTool({
    name: "read_tool_output",
    description:
      "Read on in a tool's output that was cut at its size cap. The cut output ends with a note giving the ref and the offset to continue from.",
    category: "meta",
    effect: "read",
    input: z.object({
      ref: z
        .string()
        .regex(OUTPUT_REF, "is a ref like out_… from a cut output's note")
        .describe("the output's ref"),
      offset: z
        .number()
        .int()
        .min(0)
        .default(0)
        .describe("the character to start at; one inside an emoji starts at the emoji"),
      length: z.number().int().min(1).max(MAX_PAGE).default(16_000).describe("how many characters to read"),
    }),
    // A page at its longest, in UTF-8 at its widest, plus the note: never cut again.
    limits: { outputBytes: MAX_PAGE * 4 + 1024 },
    async run({ ref, offset, length }, context) {
      const output = await outputs.get({ tenantId: context.tenantId, principalId: context.principalId, ref });
      if (!output) {
        throw new ToolFailure(
          "invalid_input",
          `there is no kept output ${ref} for you; use the ref from a cut output's note`,
        );
      }
      const { text } = output;
      const total = text.length;
      if (offset > total) {
        throw new ToolFailure(
          "invalid_input",
          `offset ${offset} is past the end of ${ref} (${total} characters)`,
        );
      }
      // Characters are UTF-16 units; a page never parts the two halves of an emoji.
      const { text: page, start, end, nextOffset } = pageText(text, offset, length);
      const note =
        nextOffset === null
          ? `\n[characters ${start}–${end} of ${total}: the end of ${output.toolName}'s output]`
          : `\n[characters ${start}–${end} of ${total}; read on with offset ${nextOffset}]`;
      return {
        content: page + note,
        data: { ref, tool: output.toolName, offset: start, length: page.length, total, nextOffset },
        ...(output.provenance ? { provenance: output.provenance } : {}),
      };
    },
  });
}
