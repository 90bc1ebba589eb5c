/** @module The Notion toolkit's configuration, as a config file or a host gives it. */
import { z } from "zod";

/**
 * The most characters of page content notion_get_page returns in one answer: its output limit is sized to
 * hold this much with room to spare.
 */
export const MAX_CONTENT_CHARS = 100_000;

export const NotionConfigSchema = z.strictObject({
  credentialRef: z.string().min(1).default("notion").meta({
    description:
      "the credential Notion's requests carry, resolved per call: an internal integration token (ntn_… or secret_…)",
  }),
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .default("https://api.notion.com")
    .meta({ description: "the API root, where /v1/pages lives; a test points it at a fake" }),
  maxItems: z
    .int()
    .min(1)
    .max(100)
    .default(50)
    .meta({ description: "the most search results or data source rows a read tool returns in one call" }),
  maxDepth: z
    .int()
    .min(1)
    .max(10)
    .default(3)
    .meta({ description: "how many levels of nested blocks notion_get_page reads below the page" }),
  maxBlocks: z
    .int()
    .min(1)
    .max(2000)
    .default(300)
    .meta({ description: "the most blocks notion_get_page reads from one page" }),
  maxRequests: z.int().min(1).max(100).default(25).meta({
    description:
      "the most block-children requests notion_get_page makes for one page (Notion allows about three a second)",
  }),
  maxChars: z.int().min(1000).max(MAX_CONTENT_CHARS).default(60_000).meta({
    description:
      "the most characters of page content notion_get_page returns (at most 100,000: what its output limit holds)",
  }),
});

export type NotionConfig = z.output<typeof NotionConfigSchema>;
