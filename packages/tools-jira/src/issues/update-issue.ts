/**
 * @module `jira_update_issue`: changes the given fields of an issue, `PUT /rest/api/3/issue/{key}` with
 * `fields`, answered 204. Fields not given stay as they are; the status changes only by a transition.
 */
import { z } from "zod";
import { jiraTool } from "../jira-env.js";
import { issueKeyField } from "../jira-inputs.js";
import { editableFieldsShape, jiraFieldsOf } from "./issue-fields.js";
import { issueUrl } from "./issue-output.js";

export const updateIssue = jiraTool({
  name: "jira_update_issue",
  description:
    "Changes fields of an existing Jira issue: its summary, markdown description (replaced whole), labels (replaced whole), priority or assignee; fields not given stay as they are. It cannot change the status: use jira_transition_issue for that, and jira_comment to add a comment. Watchers are notified.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["write:jira-work"],
  // Strict: a field this tool does not write (a status above all, which only a transition changes) is
  // refused with the arguments it takes, never dropped while the others are written.
  input: z
    .strictObject({
      key: issueKeyField,
      ...editableFieldsShape,
      summary: editableFieldsShape.summary.optional(),
    })
    .refine(
      ({ key: _key, ...fields }) => Object.values(fields).some((value) => value !== undefined),
      "give at least one field to change: summary, description, labels, priority or assigneeAccountId",
    ),
  async run({ key, ...fields }, context, env) {
    const changed = jiraFieldsOf(fields);
    await env.jira(context).sendExpectingNothing(`the update of issue ${key}`, {
      method: "PUT",
      path: `/rest/api/3/issue/${key}`,
      json: { fields: changed },
    });
    const url = issueUrl(env, key);
    return {
      content: `Updated ${Object.keys(changed).join(", ")} of ${key}${url ? `: ${url}` : ""}`,
      data: { key, changed: Object.keys(changed), url },
    };
  },
});
