/** @module `confluence_comment`: a footer comment on a page, seen by everyone who can see the page. */
import { z } from "zod";
import { confluenceTool } from "../confluence-env.js";
import { markdownField, pageIdField } from "../confluence-inputs.js";
import { FooterCommentSchema } from "../confluence-shapes.js";
import { storageBody } from "../pages/page-body.js";
import { webLinkOf } from "../web-link.js";

export const comment = confluenceTool({
  name: "confluence_comment",
  description:
    "Adds a comment at the foot of a Confluence page (markdown), as the connected account; everyone who can see the page sees it and watchers are notified. Use it to remark on a page without changing it; use confluence_update_page to change the page itself.",
  category: "knowledge",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["write:comment:confluence"],
  input: z.object({
    pageId: pageIdField,
    markdown: markdownField("comment", 20_000).describe("the comment, in markdown"),
  }),
  async run({ pageId, markdown }, context, env) {
    const created = await env.confluence(context).send({
      what: `page ${pageId}`,
      method: "POST",
      path: "/wiki/api/v2/footer-comments",
      json: { pageId, body: storageBody(markdown) },
      answer: FooterCommentSchema,
    });
    const url = webLinkOf(created._links, env.siteUrl && `${env.siteUrl}/wiki`);
    return {
      content: `Commented on page ${pageId} (comment ${created.id})${url ? `: ${url}` : ""}`,
      data: { id: created.id, pageId, ...(url ? { url } : {}) },
    };
  },
});
