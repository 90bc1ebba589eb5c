/** @module `confluence_create_page`: a new page in a space, optionally under a parent page. */
import { oneLine } from "toolreg/toolkit";
import { z } from "zod";
import { confluenceTool } from "../confluence-env.js";
import { pageIdField, spaceIdField, titleField } from "../confluence-inputs.js";
import { PageSchema } from "../confluence-shapes.js";
import { webLinkOf } from "../web-link.js";
import { pageMarkdownField, storageBody } from "./page-body.js";

export const createPage = confluenceTool({
  name: "confluence_create_page",
  description:
    "Creates a new published Confluence page in a space (by its numeric id from confluence_list_spaces), under a parent page if given (else under the space's home page), with a markdown body. Titles are unique within a space. Use confluence_update_page to change an existing page. Returns the new page's id and version 1.",
  category: "knowledge",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["write:page:confluence"],
  input: z.object({
    spaceId: spaceIdField,
    title: titleField,
    markdown: pageMarkdownField,
    parentId: pageIdField.optional().describe("the id of the page to create it under"),
  }),
  async run({ spaceId, title, markdown, parentId }, context, env) {
    const page = await env.confluence(context).send({
      what: `space ${spaceId}${parentId ? ` or parent page ${parentId}` : ""}`,
      method: "POST",
      path: "/wiki/api/v2/pages",
      json: {
        spaceId,
        status: "current",
        title,
        ...(parentId ? { parentId } : {}),
        body: storageBody(markdown),
      },
      answer: PageSchema,
    });
    const url = webLinkOf(page._links, env.siteUrl && `${env.siteUrl}/wiki`);
    return {
      content: `Created page ${page.id} "${oneLine(page.title, 255)}" in space ${page.spaceId}${url ? ` (${url})` : ""}`,
      data: {
        id: page.id,
        title: page.title,
        spaceId: page.spaceId,
        version: page.version.number,
        ...(url ? { url } : {}),
      },
    };
  },
});
