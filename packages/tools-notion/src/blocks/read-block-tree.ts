/**
 * @module A page's block tree read within stated limits. Notion returns one level of children per request
 * (GET /v1/blocks/{id}/children, at most 100 a page) and a block with `has_children` needs a request of its
 * own, so a deep or long page could take hundreds of requests at Notion's three a second. The walk goes in
 * document order and stops at whichever limit comes first — blocks read, requests made, characters of text,
 * the call's remaining time — and reports it by name; children below the depth limit are left unread (and
 * marked), the rest still read. A request that fails after others succeeded (a 429 most likely) ends the
 * read with what it has, the failure named, instead of throwing the pages already read away.
 */
import { type BlockObjectResponse, isFullBlock, type ListBlockChildrenResponse } from "@notionhq/client";
import { ToolFailure } from "toolreg/toolkit";
import { NOTION_PAGE_SIZE } from "../notion-client.js";
import { type BlockNode, blockLine } from "./blocks-to-markdown.js";

export interface BlockTreeLimits {
  /** Levels read below the page: 1 is its top-level blocks only. */
  maxDepth: number;
  maxBlocks: number;
  maxRequests: number;
  /** Characters of block text, as markdown renders it. */
  maxChars: number;
}

export type BlockTreeLimit =
  | "depth"
  | "blocks"
  | "requests"
  | "characters"
  | "time"
  | "rate_limit"
  | "failure";

/** The call's clock: no request starts after `deadline - TIME_RESERVE_MS`. */
export interface BlockTreeClock {
  deadline: number;
  now: () => number;
}

/**
 * Time left unused for the last request and the answer: a request started later could outlast the call's
 * deadline, and a timed-out call returns nothing at all. Notion answers a children list in well under this.
 */
export const TIME_RESERVE_MS = 5000;

export interface BlockTree {
  nodes: BlockNode[];
  /** The limit that left part of the page unread; absent when all of it was read. */
  stoppedBy?: BlockTreeLimit;
  blocks: number;
  requests: number;
  characters: number;
  /** The failure that stopped the read (stoppedBy rate_limit or failure). */
  failure?: ToolFailure;
}

export type ChildrenPage = (
  blockId: string,
  cursor: string | undefined,
  pageSize: number,
) => Promise<ListBlockChildrenResponse>;

export async function readBlockTree(
  rootId: string,
  fetchChildren: ChildrenPage,
  limits: BlockTreeLimits,
  clock: BlockTreeClock,
): Promise<BlockTree> {
  let blocks = 0;
  let requests = 0;
  let characters = 0;
  let halted: Exclude<BlockTreeLimit, "depth"> | undefined;
  let failure: ToolFailure | undefined;
  let depthCut = false;

  /** One page of children, or undefined when a failure after the first request ends the read. */
  const fetchPage = async (parentId: string, cursor: string | undefined) => {
    const size = Math.min(NOTION_PAGE_SIZE, limits.maxBlocks - blocks);
    requests++;
    try {
      return await fetchChildren(parentId, cursor, size);
    } catch (error) {
      // Nothing read yet: the failure is the answer. Otherwise it ends the read and is named.
      if (requests === 1 || !ToolFailure.isInstance(error)) throw error;
      failure = error;
      halted =
        error.envelopeCode === "upstream_rate_limited"
          ? "rate_limit"
          : error.envelopeCode === "timeout"
            ? "time"
            : "failure";
      return undefined;
    }
  };

  const walk = async (parentId: string, depth: number): Promise<BlockNode[]> => {
    const nodes: BlockNode[] = [];
    let cursor: string | undefined;
    while (halted === undefined) {
      if (requests >= limits.maxRequests) {
        halted = "requests";
        break;
      }
      if (blocks >= limits.maxBlocks) {
        halted = "blocks";
        break;
      }
      if (clock.now() > clock.deadline - TIME_RESERVE_MS) {
        halted = "time";
        break;
      }
      const page = await fetchPage(parentId, cursor);
      if (page === undefined) break;
      for (const block of page.results) {
        // A partial block (no type) is one the integration may not read in full: nothing to show.
        if (!isFullBlock(block)) continue;
        if (blocks >= limits.maxBlocks) {
          halted = "blocks";
          break;
        }
        const length = blockLine(block).length;
        if (characters + length > limits.maxChars) {
          halted = "characters";
          break;
        }
        blocks++;
        characters += length;
        nodes.push(await nodeOf(block, depth));
        if (halted !== undefined) break;
      }
      if (halted !== undefined || !page.has_more || page.next_cursor === null) break;
      cursor = page.next_cursor;
    }
    return nodes;
  };

  const nodeOf = async (block: BlockObjectResponse, depth: number): Promise<BlockNode> => {
    // Child pages and databases are their own documents: named, never read into this one.
    const ownDocument = block.type === "child_page" || block.type === "child_database";
    if (!block.has_children || ownDocument) return { block, children: [], childrenOmitted: false };
    if (depth >= limits.maxDepth) {
      depthCut = true;
      return { block, children: [], childrenOmitted: true };
    }
    const children = await walk(block.id, depth + 1);
    return { block, children, childrenOmitted: halted !== undefined && children.length === 0 };
  };

  const nodes = await walk(rootId, 1);
  const stoppedBy = halted ?? (depthCut ? "depth" : undefined);
  return {
    nodes,
    ...(stoppedBy ? { stoppedBy } : {}),
    blocks,
    requests,
    characters,
    ...(failure ? { failure } : {}),
  };
}
