/**
 * @module `notion_append_blocks`: markdown added at the end of a page (or inside a block that takes children,
 * a toggle say), converted to Notion blocks and sent a hundred at a time.
 */
import { z } from "zod";
import { notionTool } from "../notion-env.js";
import { idField } from "../notion-inputs.js";
import { markdownField } from "../pages/page-inputs.js";
import { appendInBatches } from "./append-in-batches.js";
import { blockBatches } from "./block-batches.js";
import { markdownToBlocks } from "./markdown-to-blocks.js";

export const appendBlocks = notionTool({
  name: "notion_append_blocks",
  description:
    "Adds markdown content at the end of an existing Notion page, or inside a block that takes children (a toggle, a list item): headings, lists, to-dos, quotes, fenced code, dividers and paragraphs. Existing content is left as it is. Use notion_create_page for a new page and notion_update_page to change properties.",
  category: "knowledge",
  effect: "external-write",
  cost: "io",
  input: z.object({ blockId: idField("page or block"), markdown: markdownField }),
  async run({ blockId, markdown }, context, env) {
    const batches = blockBatches(markdownToBlocks(markdown));
    const written = await appendInBatches(env.notion(context), blockId, batches);
    return {
      content: `Appended ${written} blocks to ${blockId} in ${batches.length} request${batches.length === 1 ? "" : "s"}`,
      data: { blockId, blocks: written, requests: batches.length },
    };
  },
});
