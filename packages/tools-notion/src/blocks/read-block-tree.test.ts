import type { ListBlockChildrenResponse } from "@notionhq/client";
import { ToolFailure } from "toolreg/toolkit";
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

/** A clock that never runs out. */
const timeless = { deadline: Number.POSITIVE_INFINITY, now: () => 0 };

const roomy: BlockTreeLimits = { maxDepth: 10, maxBlocks: 10_000, maxRequests: 1000, maxChars: 1_000_000 };

describe("readBlockTree", () => {
  it("reads a whole tree within its limits, one request per parent, and names no limit", async () => {
    const { fetch, asked } = tree(3, 2);
    const read = await readBlockTree("root", fetch, roomy, timeless);
    expect(read).toMatchObject({ blocks: 14, requests: 7 });
    expect(read.stoppedBy).toBeUndefined();
    expect(asked[0]).toEqual({ id: "root", pageSize: 100 });
  });

  it("depth: leaves children below it unread and marked, and still reads the siblings", async () => {
    const read = await readBlockTree("root", tree(3, 2).fetch, { ...roomy, maxDepth: 2 }, timeless);
    expect(read).toMatchObject({ stoppedBy: "depth", blocks: 6, requests: 3 });
    expect(read.nodes[1]?.children[1]?.childrenOmitted).toBe(true);
  });

  it("blocks: stops at the count, asking Notion for no more than is left", async () => {
    const { fetch, asked } = tree(1, 250);
    const read = await readBlockTree("root", fetch, { ...roomy, maxBlocks: 120 }, timeless);
    expect(read).toMatchObject({ stoppedBy: "blocks", blocks: 120, requests: 2 });
    expect(asked.map((request) => request.pageSize)).toEqual([100, 20]);
  });

  it("blocks: exactly as many as the page has is complete", async () => {
    const read = await readBlockTree("root", tree(1, 100).fetch, { ...roomy, maxBlocks: 100 }, timeless);
    expect(read.stoppedBy).toBeUndefined();
  });

  it("requests: stops before the request past the limit", async () => {
    const read = await readBlockTree("root", tree(3, 2).fetch, { ...roomy, maxRequests: 2 }, timeless);
    expect(read).toMatchObject({ stoppedBy: "requests", requests: 2 });
  });

  it("characters: stops before the block that would pass the limit", async () => {
    const read = await readBlockTree("root", tree(1, 10).fetch, { ...roomy, maxChars: 30 }, timeless);
    // "level 1" is 7 characters: four fit in 30.
    expect(read).toMatchObject({ stoppedBy: "characters", blocks: 4, characters: 28 });
  });

  it("time: starts no request within the reserve before the deadline, and keeps what was read", async () => {
    let now = 0;
    const { fetch } = tree(1, 500);
    const slow = async (id: string, cursor: string | undefined, pageSize: number) => {
      now += 3000;
      return fetch(id, cursor, pageSize);
    };
    const read = await readBlockTree("root", slow, roomy, { deadline: 12_000, now: () => now });
    // Each request takes 3 s of a 12 s budget with 5 s kept in reserve: they start at 0, 3 and 6 s, not at 9.
    expect(read).toMatchObject({ stoppedBy: "time", requests: 3, blocks: 300 });
    expect(read.nodes).toHaveLength(300);
  });

  it("a failure after the first request ends the read with what it has; on the first it is thrown", async () => {
    const { fetch } = tree(1, 250);
    const limited = new ToolFailure("upstream_rate_limited", "slow down", {
      retryable: true,
      retryAfterMs: 1000,
    });
    let calls = 0;
    const flaky = async (id: string, cursor: string | undefined, pageSize: number) => {
      if (++calls === 2) throw limited;
      return fetch(id, cursor, pageSize);
    };
    const read = await readBlockTree("root", flaky, roomy, timeless);
    expect(read).toMatchObject({ stoppedBy: "rate_limit", blocks: 100, requests: 2, failure: limited });

    const failing = async () =>
      Promise.reject(new ToolFailure("upstream_error", "down", { retryable: true }));
    await expect(readBlockTree("root", failing, roomy, timeless)).rejects.toThrow("down");
  });
});
