/**
 * @module `jira_create_issue`: a new issue, `POST /rest/api/3/issue`, answered 201 with its id and key.
 * Jira takes no idempotency key, so a create whose answer was lost is reported unknown by the seam, not
 * retried into a second issue.
 */
import { z } from "zod";
import { jiraTool } from "../jira-env.js";
import { issueKeyField, oneLineField, projectKeyField } from "../jira-inputs.js";
import { CreatedIssueShape } from "../jira-shapes.js";
import { editableFieldsShape, jiraFieldsOf } from "./issue-fields.js";
import { issueUrl } from "./issue-output.js";

export const createIssue = jiraTool({
  name: "jira_create_issue",
  description:
    "Creates a Jira issue in a project: its type (Task, Bug, Story… as the project has them), summary, and optionally a markdown description, labels, priority, assignee and parent. Use jira_list_projects for the project key and jira_search_issues first to avoid a duplicate; use jira_update_issue to change an issue that exists. Everyone with access to the project sees it. Returns the new key.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["write:jira-work"],
  input: z.object({
    project: projectKeyField,
    issueType: oneLineField("an issue type name", 60).describe(
      "the issue type's name in that project, e.g. Task, Bug or Story",
    ),
    ...editableFieldsShape,
    parent: issueKeyField.optional().describe("the parent issue's key, for a sub-task or an epic's child"),
  }),
  async run({ project, issueType, parent, ...fields }, context, env) {
    const created = await env.jira(context).send(
      `a new ${issueType} in project ${project}`,
      {
        method: "POST",
        path: "/rest/api/3/issue",
        json: {
          fields: {
            project: { key: project },
            issuetype: { name: issueType },
            ...jiraFieldsOf(fields),
            ...(parent === undefined ? {} : { parent: { key: parent } }),
          },
        },
      },
      CreatedIssueShape,
    );
    const url = issueUrl(env, created.key);
    return {
      content: `Created ${created.key} in ${project}${url ? `: ${url}` : ""}`,
      data: { key: created.key, id: created.id, url },
    };
  },
});
