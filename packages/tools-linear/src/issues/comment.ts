/**
 * @module `linear_comment`: adds a markdown comment to an issue. Its id is derived from the call's
 * idempotency key, so a retry posts nothing twice.
 */
import { oneLine, ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { createOnce } from "../linear-create-once.js";
import { linearTool } from "../linear-env.js";
import { derivedId } from "../linear-ids.js";
import { issueField, markdownField } from "../linear-inputs.js";

const COMMENT_FIELDS = "id url body createdAt issue { id identifier }";
const COMMENT_MUTATION = `mutation LinearComment($input: CommentCreateInput!) {
  commentCreate(input: $input) { success comment { ${COMMENT_FIELDS} } }
}`;
const COMMENT_BY_ID_QUERY = `query LinearCommentById($id: String!) { comment(id: $id) { ${COMMENT_FIELDS} } }`;

const Comment = z.object({
  id: z.string(),
  url: z.string(),
  body: z.string(),
  createdAt: z.string(),
  issue: z.object({ id: z.string(), identifier: z.string() }).nullable(),
});

export const comment = linearTool({
  name: "linear_comment",
  description:
    "Adds a comment in markdown to one Linear issue (by identifier ENG-123 or id); the issue's subscribers are notified. Use it to add to an issue's discussion; to change the issue itself (its state, assignee, title) use linear_update_issue. Needs a person's approval.",
  category: "project",
  effect: "external-write",
  cost: "io",
  upstreamDeduplicates: true,
  input: z.strictObject({
    issue: issueField,
    body: markdownField("the comment").describe("the comment in markdown"),
  }),
  async run({ issue, body }, context, env) {
    const linear = env.linear(context);
    const id = derivedId("linear_comment", context);
    const what = `the comment on issue ${issue}`;
    const created = await createOnce({
      what,
      create: async () => {
        const answer = await linear.request(
          what,
          COMMENT_MUTATION,
          { input: { id, issueId: issue, body } },
          z.object({ commentCreate: z.object({ success: z.boolean(), comment: Comment }) }),
        );
        if (!answer.commentCreate.success) {
          throw new ToolFailure("upstream_error", `Linear did not post ${what} and said no more`, {
            retryable: false,
          });
        }
        return answer.commentCreate.comment;
      },
      existing: () =>
        linear
          .request(what, COMMENT_BY_ID_QUERY, { id }, z.object({ comment: Comment }))
          .then((answer) => answer.comment),
      // A comment found under this call's id is its own only on the same issue with the same body.
      matches: (found) =>
        found.body.trim() === body.trim() &&
        (found.issue?.id === issue || found.issue?.identifier.toUpperCase() === issue),
    });
    const posted = created.value;
    const url = /^https?:\/\//i.test(posted.url) ? posted.url : "";
    const on = posted.issue ? oneLine(posted.issue.identifier, 30) : issue;
    return {
      content:
        `${created.recovered ? "Commented (Linear's answer was lost; the comment was found by its id)" : "Commented"} on ${on}: ${url}`.trim(),
      data: {
        comment: { id: posted.id, url, createdAt: posted.createdAt, issue: on },
        recovered: created.recovered,
      },
      provenance: { source: url || linear.endpoint, trusted: false },
    };
  },
});
