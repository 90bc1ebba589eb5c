/**
 * @module Blocks appended in order, a request per hundred (PATCH /v1/blocks/{id}/children). A failure after
 * some requests went through says how many blocks are already on the page, and is not retryable as it
 * stands: the same call again would add them twice.
 */
import type { BlockObjectRequest } from "@notionhq/client";
import { ToolFailure } from "toolreg/toolkit";
import type { NotionCall } from "../notion-client.js";

export async function appendInBatches(
  notion: NotionCall,
  blockId: string,
  batches: readonly BlockObjectRequest[][],
  alreadyWritten = 0,
): Promise<number> {
  let written = alreadyWritten;
  for (const children of batches) {
    try {
      await notion.call(`appending ${children.length} blocks to ${blockId}`, (client) =>
        client.blocks.children.append({ block_id: blockId, children }),
      );
    } catch (error) {
      if (written === 0 || !ToolFailure.isInstance(error)) throw error;
      throw new ToolFailure(
        error.envelopeCode,
        `${error.message}. ${written} blocks were already written to ${blockId} before this failure; read it with notion_get_page and append only what is missing`,
        { retryable: false, details: { ...error.details, blocksWritten: written } },
      );
    }
    written += children.length;
  }
  return written;
}
