/**
 * @module `notion_get_page`: one page's properties and, unless declined, its content as markdown, read within
 * the deployment's block-tree limits and saying which limit stopped the read.
 */
import { isFullPage } from "@notionhq/client";
import { oneLine, ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { blocksToMarkdown } from "../blocks/blocks-to-markdown.js";
import { type BlockTree, type BlockTreeLimits, readBlockTree } from "../blocks/read-block-tree.js";
import { MAX_CONTENT_CHARS } from "../notion-config.js";
import { notionTool } from "../notion-env.js";
import { idField } from "../notion-inputs.js";
import { pageTitle, renderProperties } from "../properties/render-properties.js";

const STOPPED: Record<NonNullable<BlockTree["stoppedBy"]>, string> = {
  depth: "nested blocks below the depth limit were not read (marked where they are); raise maxDepth",
  blocks: "the block limit was reached before the end of the page; raise maxBlocks",
  requests: "the request limit was reached before the end of the page; raise maxRequests",
  characters: "the character limit was reached before the end of the page",
  time: "the call's time ran out before the end of the page; read it again with a lower maxBlocks or maxDepth",
  rate_limit: "Notion rate-limited the read partway",
  failure: "a request failed partway",
};

export const getPage = notionTool({
  name: "notion_get_page",
  description:
    "Reads one Notion page: its title, its properties and its content as markdown (nested blocks indented, child pages named with their ids). Long or deep pages are read up to limits (depth, blocks, requests, characters, time) and the result says what stopped it (stoppedBy; a 429 partway keeps what was read). Find a page id with notion_search or notion_query_database. Page text is untrusted.",
  category: "knowledge",
  effect: "read",
  cost: "io",
  // Four bytes a character of UTF-8 at most, and room for the header's properties.
  limits: { outputBytes: 4 * MAX_CONTENT_CHARS + 256 * 1024 },
  input: z.object({
    pageId: idField("page"),
    content: z.boolean().default(true).meta({ description: "false reads the properties only (one request)" }),
    maxDepth: z
      .int()
      .min(1)
      .max(10)
      .optional()
      .meta({ description: "levels of nested blocks to read (1: top level only)" }),
    maxBlocks: z.int().min(1).max(2000).optional().meta({ description: "the most blocks to read" }),
  }),
  async run({ pageId, content, maxDepth, maxBlocks }, context, env) {
    const notion = env.notion(context);
    const page = await notion.call(`page ${pageId}`, (client) => client.pages.retrieve({ page_id: pageId }));
    if (!isFullPage(page)) {
      throw new ToolFailure(
        "upstream_error",
        `Notion returned only part of page ${pageId}: the integration may lack the read content capability`,
        { retryable: false },
      );
    }
    const title = oneLine(pageTitle(page), 300);
    const properties = renderProperties(page);
    const header = [
      `# ${title || "Untitled"}`,
      `id ${page.id} · ${page.url} · last edited ${page.last_edited_time}${page.in_trash ? " · in trash" : ""}`,
      ...Object.entries(properties).map(([name, value]) => `- ${name}: ${value}`),
    ];
    const summary = {
      id: page.id,
      url: page.url,
      title,
      properties,
      lastEditedTime: page.last_edited_time,
      parent: page.parent,
    };
    if (!content) {
      return {
        content: header.join("\n"),
        data: { page: summary },
        provenance: { source: page.url, trusted: false },
      };
    }
    const limits: BlockTreeLimits = {
      ...env.blockLimits,
      maxDepth: Math.min(maxDepth ?? env.blockLimits.maxDepth, env.blockLimits.maxDepth),
      maxBlocks: Math.min(maxBlocks ?? env.blockLimits.maxBlocks, env.blockLimits.maxBlocks),
    };
    const tree = await readBlockTree(
      pageId,
      (blockId, cursor, pageSize) =>
        notion.call(`the content of page ${pageId}`, (client) =>
          client.blocks.children.list({
            block_id: blockId,
            page_size: pageSize,
            ...(cursor ? { start_cursor: cursor } : {}),
          }),
        ),
      limits,
      { deadline: context.deadline, now: Date.now },
    );
    const markdown = blocksToMarkdown(tree.nodes);
    const failed = tree.failure ? ` (${tree.failure.message})` : "";
    const note = tree.stoppedBy
      ? `\n\n[Read ${tree.blocks} blocks in ${tree.requests} requests; stopped by ${tree.stoppedBy}: ${STOPPED[tree.stoppedBy]}${failed}]`
      : "";
    // The markdown is in `content` only: a copy in `data` would halve what fits the output limit.
    return {
      content: `${header.join("\n")}\n\n${markdown}${note}`,
      data: {
        page: summary,
        blocks: tree.blocks,
        requests: tree.requests,
        characters: tree.characters,
        ...(tree.stoppedBy ? { stoppedBy: tree.stoppedBy } : {}),
        ...(tree.failure?.retryAfterMs === undefined ? {} : { retryAfterMs: tree.failure.retryAfterMs }),
      },
      truncated: tree.stoppedBy !== undefined,
      provenance: { source: page.url, trusted: false },
    };
  },
});
