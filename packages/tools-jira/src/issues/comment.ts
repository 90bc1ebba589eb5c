/**
 * @module `jira_comment`: a comment on an issue, `POST /rest/api/3/issue/{key}/comment` with its body as
 * Atlassian Document Format, answered 201 with the comment.
 */
import { z } from "zod";
import { markdownToAdf } from "../adf/markdown-to-adf.js";
import { jiraTool } from "../jira-env.js";
import { issueKeyField, markdownField } from "../jira-inputs.js";
import { CommentShape } from "../jira-shapes.js";
import { issueUrl } from "./issue-output.js";

export const comment = jiraTool({
  name: "jira_comment",
  description:
    "Adds a comment to a Jira issue, written in markdown and shown as Jira rich text to everyone who can see the issue (watchers are notified). Use jira_update_issue to change the issue's own description instead, and jira_transition_issue to move it with a comment.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["write:jira-work"],
  input: z.object({ key: issueKeyField, body: markdownField("the comment") }),
  async run({ key, body }, context, env) {
    const created = await env
      .jira(context)
      .send(
        `the comment on issue ${key}`,
        { method: "POST", path: `/rest/api/3/issue/${key}/comment`, json: { body: markdownToAdf(body) } },
        CommentShape,
      );
    const url = issueUrl(env, key);
    return {
      content: `Commented on ${key} (comment ${created.id})${url ? `: ${url}?focusedCommentId=${created.id}` : ""}`,
      data: { key, commentId: created.id, created: created.created ?? null },
    };
  },
});
