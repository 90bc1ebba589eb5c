/**
 * @module Blocks appended in order, a request per hundred (PATCH /v1/blocks/{id}/children). A failure after
 * some blocks went through says how many are already there, and is not retryable as it stands: the same call
 * again would add them twice. When the blocks belong to a page just created, the failure says the page
 * exists (with its id), so a model adds the rest with notion_append_blocks instead of creating it again.
 */
import type { BlockObjectRequest } from "@notionhq/client";
import { ToolFailure } from "toolreg/toolkit";
import type { NotionCall } from "../notion-client.js";
import { notionFailure } from "../notion-failure.js";

export interface AlreadyWritten {
  /** Blocks already on the page or block before these batches. */
  blocks: number;
  /** The blocks go to a page this call created. */
  pageCreated: boolean;
}

export async function appendInBatches(
  notion: NotionCall,
  blockId: string,
  batches: readonly BlockObjectRequest[][],
  already: AlreadyWritten = { blocks: 0, pageCreated: false },
): Promise<number> {
  let written = already.blocks;
  for (const children of batches) {
    const what = `appending ${children.length} blocks to ${blockId}`;
    try {
      await notion.write(what, `Read ${blockId} with notion_get_page`, (client) =>
        client.blocks.children.append({ block_id: blockId, children }),
      );
    } catch (error) {
      if (written === 0 && !already.pageCreated) throw error;
      const failure = notionFailure(error, what);
      const next = already.pageCreated
        ? `Page ${blockId} WAS created, with the first ${written} blocks of its content: do not create it again; read it with notion_get_page and add what is missing with notion_append_blocks (blockId ${blockId})`
        : `${written} blocks were already written to ${blockId} before this failure; read it with notion_get_page and append only what is missing`;
      throw new ToolFailure(failure.envelopeCode, `${failure.message}. ${next}`, {
        retryable: false,
        details: {
          ...failure.details,
          blocksWritten: written,
          ...(already.pageCreated ? { pageId: blockId } : {}),
        },
      });
    }
    written += children.length;
  }
  return written;
}
