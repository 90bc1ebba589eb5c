/**
 * @module The Notion toolkit: search, read pages and data sources, create and update pages, append content
 * and comment, every request through toolreg's egress to the configured API host only, with the
 * integration token injected there. Token only: Notion's internal integrations have no consent step, so a
 * missing credential fails with what to configure.
 */
import { defineToolkit } from "toolreg/toolkit";
import { appendBlocks } from "./blocks/append-blocks.js";
import { comment } from "./comments/comment.js";
import { queryDatabase } from "./data-sources/query-database.js";
import { createNotionClient } from "./notion-client.js";
import { NotionConfigSchema } from "./notion-config.js";
import type { NotionEnv } from "./notion-env.js";
import { createPage } from "./pages/create-page.js";
import { getPage } from "./pages/get-page.js";
import { updatePage } from "./pages/update-page.js";
import { search } from "./search/search.js";

const PACKAGE = "@toolreg/tools-notion";

export const notionToolkit = defineToolkit({
  id: "notion",
  version: "0.1.0",
  package: PACKAGE,
  description:
    "Notion: find and read pages and data sources, create and update pages, add content and comments.",
  config: NotionConfigSchema,
  auth: { kind: "token", header: "authorization", scheme: "Bearer" },
  hosts: ["api.notion.com"],
  tools: [search, getPage, queryDatabase, createPage, updatePage, appendBlocks, comment],
  triage: {
    directed: [
      {
        tool: `${PACKAGE}/*`,
        package: PACKAGE,
        why: "an integration reaches only the pages someone explicitly connected it to, read by that workspace's members; publishing a page to the web is a setting a person turns on for the page, not something these tools do",
      },
    ],
  },
  bind(config, host): NotionEnv {
    const egress = host.egress({
      hosts: [new URL(config.baseUrl).hostname],
      credential: { header: "authorization", scheme: "Bearer", credentialRef: config.credentialRef },
    });
    return {
      notion: createNotionClient({ baseUrl: config.baseUrl.replace(/\/+$/, ""), egress }),
      maxItems: config.maxItems,
      blockLimits: {
        maxDepth: config.maxDepth,
        maxBlocks: config.maxBlocks,
        maxRequests: config.maxRequests,
        maxChars: config.maxChars,
      },
    };
  },
});
