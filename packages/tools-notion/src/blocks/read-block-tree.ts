/**
 * @module A page's block tree read within stated limits. Notion returns one level of children per request
 * (GET /v1/blocks/{id}/children, at most 100 a page) and a block with `has_children` needs a request of its
 * own, so a deep or long page could take hundreds of requests at Notion's three a second. The walk goes in
 * document order and stops at whichever limit comes first — blocks read, requests made, characters of text —
 * and reports it by name; children below the depth limit are left unread (and marked), the rest still read.
 */
import { type BlockObjectResponse, isFullBlock, type ListBlockChildrenResponse } from "@notionhq/client";
import { type BlockNode, blockLine } from "./blocks-to-markdown.js";

export interface BlockTreeLimits {
  /** Levels read below the page: 1 is its top-level blocks only. */
  maxDepth: number;
  maxBlocks: number;
  maxRequests: number;
  /** Characters of block text, as markdown renders it. */
  maxChars: number;
}

export type BlockTreeLimit = "depth" | "blocks" | "requests" | "characters";

export interface BlockTree {
  nodes: BlockNode[];
  /** The limit that left part of the page unread; absent when all of it was read. */
  stoppedBy?: BlockTreeLimit;
  blocks: number;
  requests: number;
  characters: number;
}

export type ChildrenPage = (
  blockId: string,
  cursor: string | undefined,
  pageSize: number,
) => Promise<ListBlockChildrenResponse>;

const PAGE_SIZE = 100;

export async function readBlockTree(
  rootId: string,
  fetchChildren: ChildrenPage,
  limits: BlockTreeLimits,
): Promise<BlockTree> {
  let blocks = 0;
  let requests = 0;
  let characters = 0;
  let halted: Exclude<BlockTreeLimit, "depth"> | undefined;
  let depthCut = false;

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
      requests++;
      const page = await fetchChildren(parentId, cursor, Math.min(PAGE_SIZE, limits.maxBlocks - blocks));
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
  return { nodes, ...(stoppedBy ? { stoppedBy } : {}), blocks, requests, characters };
}
