/**
 * @module `notion_create_page`: a new page in a data source (a database row) or under a page. Before
 * anything is written the parent's schema is read and every property name and value checked against it,
 * because Notion may accept a name its schema lacks and report success (issue #24). Content beyond the 100
 * blocks one request carries is appended after the page exists.
 */
import type { CreatePageParameters } from "@notionhq/client";
import { z } from "zod";
import { appendInBatches } from "../blocks/append-in-batches.js";
import { blockBatches } from "../blocks/block-batches.js";
import { markdownToBlocks } from "../blocks/markdown-to-blocks.js";
import { notionTool } from "../notion-env.js";
import { idField } from "../notion-inputs.js";
import { dataSourceSchema, type PageSchema, STANDALONE_PAGE } from "../properties/property-schema.js";
import { PropertiesInputSchema, propertyValues } from "../properties/property-values.js";
import {
  fitsOneRequest,
  markdownField,
  REQUEST_TEXT_MAX_BYTES,
  titleField,
  withTitle,
} from "./page-inputs.js";

export const createPage = notionTool({
  name: "notion_create_page",
  description:
    "Creates a Notion page: a row in a data source (dataSourceId; its properties are checked against the data source's schema first, and unknown names or wrong values are refused with the real ones listed) or a page under another page (parentPageId; only a title). Content is markdown. Use notion_update_page to change an existing page and notion_append_blocks to add to its content. Find ids with notion_search.",
  category: "knowledge",
  effect: "external-write",
  cost: "io",
  input: z
    .object({
      dataSourceId: idField("data source").optional(),
      parentPageId: idField("parent page").optional(),
      title: titleField.optional(),
      properties: PropertiesInputSchema.optional(),
      markdown: markdownField.optional(),
    })
    .refine((input) => (input.dataSourceId === undefined) !== (input.parentPageId === undefined), {
      message: "give exactly one of dataSourceId and parentPageId",
    })
    .refine((input) => fitsOneRequest(input.properties, input.markdown), {
      message: `the properties and markdown together exceed the ${REQUEST_TEXT_MAX_BYTES} bytes one Notion request carries; create the page with less and add the rest with notion_append_blocks`,
    }),
  async run({ dataSourceId, parentPageId, title, properties = {}, markdown }, context, env) {
    const batches = blockBatches(markdown === undefined ? [] : markdownToBlocks(markdown));
    const notion = env.notion(context);
    const schema: PageSchema = dataSourceId ? await dataSourceSchema(notion, dataSourceId) : STANDALONE_PAGE;
    const values = propertyValues(withTitle(properties, title, schema), schema);
    const parent: CreatePageParameters["parent"] = dataSourceId
      ? { type: "data_source_id", data_source_id: dataSourceId }
      : { type: "page_id", page_id: parentPageId ?? "" };
    const [first = [], ...rest] = batches;
    const page = await notion.write(
      `the new page in ${schema.where}`,
      `Look for it with notion_search${dataSourceId ? " or notion_query_database" : ""}`,
      (client) =>
        client.pages.create({ parent, properties: values, ...(first.length > 0 ? { children: first } : {}) }),
    );
    const blocks = await appendInBatches(notion, page.id, rest, { blocks: first.length, pageCreated: true });
    const url = "url" in page ? page.url : undefined;
    return {
      content: `Created page ${page.id}${url ? ` (${url})` : ""} in ${schema.where} with ${Object.keys(values).length} properties and ${blocks} blocks`,
      data: { id: page.id, ...(url ? { url } : {}), properties: Object.keys(values), blocks },
    };
  },
});
