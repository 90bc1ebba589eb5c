/** @module `confluence_update_page`: replaces a page's title and body, only if it is still at the version read. */
import { oneLine } from "toolreg/toolkit";
import { z } from "zod";
import { confluenceTool } from "../confluence-env.js";
import { pageIdField, titleField } from "../confluence-inputs.js";
import { PageSchema } from "../confluence-shapes.js";
import { webLinkOf } from "../web-link.js";
import { pageMarkdownField, storageBody } from "./page-body.js";
import { versionConflict } from "./version-conflict.js";

export const updatePage = confluenceTool({
  name: "confluence_update_page",
  description:
    "Replaces a Confluence page's title and whole body (markdown) as a new version. It needs the version number confluence_get_page returned: if anyone changed the page since, nothing is written and the answer says to read it again, so an edit never overwrites one it did not see. Read the page first, change what it holds, send all of it. Use confluence_create_page for a new page and confluence_comment to remark on one without changing it.",
  category: "knowledge",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["write:page:confluence"],
  input: z.object({
    pageId: pageIdField,
    version: z
      .int()
      .min(1)
      .max(2_147_483_646)
      .describe(
        "the page's version number as confluence_get_page returned it (the update becomes version + 1)",
      ),
    title: titleField,
    markdown: pageMarkdownField,
    versionMessage: z
      .string()
      .max(255)
      .optional()
      .describe("a short note on what changed, shown in the page history"),
  }),
  async run({ pageId, version, title, markdown, versionMessage }, context, env) {
    const message = versionMessage === undefined ? "" : oneLine(versionMessage, 255);
    const page = await env.confluence(context).send({
      what: `page ${pageId}`,
      method: "PUT",
      path: `/wiki/api/v2/pages/${pageId}`,
      json: {
        id: pageId,
        status: "current",
        title,
        body: storageBody(markdown),
        version: { number: version + 1, ...(message ? { message } : {}) },
      },
      answer: PageSchema,
      onConflict: versionConflict(pageId, version),
    });
    const url = webLinkOf(page._links, env.siteUrl && `${env.siteUrl}/wiki`);
    return {
      content: `Updated page ${page.id} "${oneLine(page.title, 255)}" to version ${page.version.number}${url ? ` (${url})` : ""}`,
      data: { id: page.id, title: page.title, version: page.version.number, ...(url ? { url } : {}) },
    };
  },
});
