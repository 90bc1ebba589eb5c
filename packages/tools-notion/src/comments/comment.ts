/**
 * @module `notion_comment`: a comment on a page, or a reply in an existing discussion (POST /v1/comments,
 * developers.notion.com/reference/create-a-comment). The integration needs the insert comments capability.
 */
import { z } from "zod";
import { toRichText } from "../blocks/rich-text.js";
import { notionTool } from "../notion-env.js";
import { idField, textField } from "../notion-inputs.js";

export const comment = notionTool({
  name: "notion_comment",
  description:
    "Adds a comment to a Notion page (pageId) or replies in an existing discussion thread (discussionId), as the integration; people following the page see it. Plain text. Use notion_append_blocks to add to the page's content instead.",
  category: "knowledge",
  effect: "external-write",
  cost: "io",
  input: z
    .object({
      pageId: idField("page").optional(),
      discussionId: idField("discussion").optional(),
      text: textField(20_000, "the comment, plain text (line breaks kept)", { lines: true }),
    })
    .refine((input) => (input.pageId === undefined) !== (input.discussionId === undefined), {
      message: "give exactly one of pageId and discussionId",
    }),
  async run({ pageId, discussionId, text }, context, env) {
    const rich_text = toRichText(text);
    const where = pageId ? `page ${pageId}` : `discussion ${discussionId}`;
    const created = await env
      .notion(context)
      .write(`the comment on ${where}`, "Look at the page's comments in Notion", (client) =>
        client.comments.create(
          pageId
            ? { parent: { page_id: pageId }, rich_text }
            : { discussion_id: discussionId ?? "", rich_text },
        ),
      );
    const discussion = "discussion_id" in created ? created.discussion_id : undefined;
    return {
      content: `Commented on ${where}: comment ${created.id}${discussion ? ` in discussion ${discussion}` : ""}`,
      data: { id: created.id, ...(discussion ? { discussionId: discussion } : {}) },
    };
  },
});
