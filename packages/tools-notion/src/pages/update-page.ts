/**
 * @module `notion_update_page`: changes a page's title and property values. The page's own schema (its data
 * source's, or a standalone page's title) is read first and every name and value checked against it before
 * the one PATCH, because Notion may accept a name its schema lacks and report success (issue #24).
 */
import { z } from "zod";
import { notionTool } from "../notion-env.js";
import { idField } from "../notion-inputs.js";
import { schemaOfPage } from "../properties/property-schema.js";
import { PropertiesInputSchema, propertyValues } from "../properties/property-values.js";
import { fitsOneRequest, REQUEST_TEXT_MAX_BYTES, titleField, withTitle } from "./page-inputs.js";

export const updatePage = notionTool({
  name: "notion_update_page",
  description:
    "Changes an existing Notion page's title and property values (status, dates, selects, people …), checked first against the page's data source schema: unknown names or wrong values are refused with the real properties listed, and nothing is written. Properties not named keep their values. Use notion_append_blocks to add content, notion_create_page for a new page.",
  category: "knowledge",
  effect: "external-write",
  cost: "io",
  input: z
    .object({
      pageId: idField("page"),
      title: titleField.optional(),
      properties: PropertiesInputSchema.optional(),
    })
    .refine((input) => input.title !== undefined || Object.keys(input.properties ?? {}).length > 0, {
      message: "give a title or at least one property to change",
    })
    .refine((input) => fitsOneRequest(input.properties, undefined), {
      message: `the properties exceed the ${REQUEST_TEXT_MAX_BYTES} bytes one Notion request carries; change fewer at once`,
    }),
  async run({ pageId, title, properties = {} }, context, env) {
    const notion = env.notion(context);
    const page = await notion.call(`page ${pageId}`, (client) => client.pages.retrieve({ page_id: pageId }));
    const schema = await schemaOfPage(notion, page);
    const values = propertyValues(withTitle(properties, title, schema), schema);
    const updated = await notion.write(
      `the update of page ${pageId}`,
      "Read the page with notion_get_page",
      (client) => client.pages.update({ page_id: pageId, properties: values }),
    );
    const url = "url" in updated ? updated.url : undefined;
    return {
      content: `Updated ${Object.keys(values)
        .map((name) => `"${name}"`)
        .join(", ")} of page ${updated.id}${url ? ` (${url})` : ""}`,
      data: { id: updated.id, ...(url ? { url } : {}), properties: Object.keys(values) },
    };
  },
});
