/**
 * @module Blocks cut into requests within Notion's limits: at most 100 blocks in one `children` array
 * (developers.notion.com/reference/patch-block-children: "A maximum of 100 block children can be
 * appended by a single API request"), and a bound on one call's blocks so a write stays a few requests.
 */
import type { BlockObjectRequest } from "@notionhq/client";
import { ToolFailure } from "toolreg/toolkit";

export const BLOCKS_PER_REQUEST = 100;
/** The most blocks one tool call writes: ten requests at Notion's three a second. */
export const MAX_BLOCKS_PER_CALL = 1000;

/** `blocks` in requests of at most 100; refused before anything is sent when there are more than one call writes. */
export function blockBatches(blocks: readonly BlockObjectRequest[]): BlockObjectRequest[][] {
  if (blocks.length > MAX_BLOCKS_PER_CALL) {
    throw new ToolFailure(
      "invalid_input",
      `the markdown makes ${blocks.length} blocks, more than the ${MAX_BLOCKS_PER_CALL} one call writes; split it and append the rest with notion_append_blocks`,
      { retryable: false, details: { blocks: blocks.length, max: MAX_BLOCKS_PER_CALL } },
    );
  }
  const batches: BlockObjectRequest[][] = [];
  for (let start = 0; start < blocks.length; start += BLOCKS_PER_REQUEST) {
    batches.push(blocks.slice(start, start + BLOCKS_PER_REQUEST));
  }
  return batches;
}
