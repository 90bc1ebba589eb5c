import type { ListBlockChildrenResponse } from "@notionhq/client";
import { describe, expect, it } from "vitest";
import { type BlockSpec, blockObject } from "../fake/notion-objects.js";
import { type BlockTreeLimits, readBlockTree } from "./read-block-tree.js";

/** A tree in memory: `fanout` paragraphs per level, each with children down to `levels`. */
function tree(levels: number, fanout: number) {
  const children = new Map<string, ReturnType<typeof blockObject>[]>();
  const grow = (parent: string, level: number) => {
    const spec: BlockSpec = { type: "paragraph", text: `level ${level}` };
    const blocks = Array.from({ length: fanout }, () => blockObject(spec, parent, level < levels));
    children.set(parent, blocks);
    if (level < levels) for (const block of blocks) grow(block.id, level + 1);
  };
  grow("root", 1);
  const asked: { id: string; pageSize: number }[] = [];
  const fetch = async (
    id: string,
    cursor: string | undefined,
    pageSize: number,
  ): Promise<ListBlockChildrenResponse> => {
    asked.push({ id, pageSize });
    const all = children.get(id) ?? [];
    const start = cursor === undefined ? 0 : all.findIndex((block) => block.id === cursor);
    const next = all[start + pageSize];
    return {
      object: "list",
      type: "block",
      block: {},
      results: all.slice(start, start + pageSize),
      has_more: next !== undefined,
      next_cursor: next?.id ?? null,
    };
  };
  return { fetch, asked };
}

const roomy: BlockTreeLimits = { maxDepth: 10, maxBlocks: 10_000, maxRequests: 1000, maxChars: 1_000_000 };

describe("readBlockTree", () => {
  it("reads a whole tree within its limits, one request per parent, and names no limit", async () => {
    const { fetch, asked } = tree(3, 2);
    const read = await readBlockTree("root", fetch, roomy);
    expect(read).toMatchObject({ blocks: 14, requests: 7 });
    expect(read.stoppedBy).toBeUndefined();
    expect(asked[0]).toEqual({ id: "root", pageSize: 100 });
  });

  it("depth: leaves children below it unread and marked, and still reads the siblings", async () => {
    const read = await readBlockTree("root", tree(3, 2).fetch, { ...roomy, maxDepth: 2 });
    expect(read).toMatchObject({ stoppedBy: "depth", blocks: 6, requests: 3 });
    expect(read.nodes[1]?.children[1]?.childrenOmitted).toBe(true);
  });

  it("blocks: stops at the count, asking Notion for no more than is left", async () => {
    const { fetch, asked } = tree(1, 250);
    const read = await readBlockTree("root", fetch, { ...roomy, maxBlocks: 120 });
    expect(read).toMatchObject({ stoppedBy: "blocks", blocks: 120, requests: 2 });
    expect(asked.map((request) => request.pageSize)).toEqual([100, 20]);
  });

  it("blocks: exactly as many as the page has is complete", async () => {
    const read = await readBlockTree("root", tree(1, 100).fetch, { ...roomy, maxBlocks: 100 });
    expect(read.stoppedBy).toBeUndefined();
  });

  it("requests: stops before the request past the limit", async () => {
    const read = await readBlockTree("root", tree(3, 2).fetch, { ...roomy, maxRequests: 2 });
    expect(read).toMatchObject({ stoppedBy: "requests", requests: 2 });
  });

  it("characters: stops before the block that would pass the limit", async () => {
    const read = await readBlockTree("root", tree(1, 10).fetch, { ...roomy, maxChars: 30 });
    // "level 1" is 7 characters: four fit in 30.
    expect(read).toMatchObject({ stoppedBy: "characters", blocks: 4, characters: 28 });
  });
});
