/**
 * @module The fields jira_create_issue and jira_update_issue both write, as Jira's `fields` object takes
 * them (developer.atlassian.com/cloud/jira/platform/rest/v3/api-group-issues/#api-rest-api-3-issue-post):
 * the description as Atlassian Document Format, a priority by name, an assignee by account id.
 */
import { z } from "zod";
import { markdownToAdf } from "../adf/markdown-to-adf.js";
import { accountIdField, labelsField, markdownField, priorityField, summaryField } from "../jira-inputs.js";

export const editableFieldsShape = {
  summary: summaryField,
  description: markdownField("the description").optional(),
  labels: labelsField.optional(),
  priority: priorityField.optional(),
  assigneeAccountId: accountIdField.optional(),
};

const Editable = z.object(editableFieldsShape).partial();
export type EditableFields = z.output<typeof Editable>;

/** The `fields` Jira takes for what was given; a field not given is not sent, so Jira leaves it as it is. */
export function jiraFieldsOf(input: EditableFields): Record<string, unknown> {
  return {
    ...(input.summary === undefined ? {} : { summary: input.summary }),
    ...(input.description === undefined ? {} : { description: markdownToAdf(input.description) }),
    ...(input.labels === undefined ? {} : { labels: input.labels }),
    ...(input.priority === undefined ? {} : { priority: { name: input.priority } }),
    ...(input.assigneeAccountId === undefined ? {} : { assignee: { accountId: input.assigneeAccountId } }),
  };
}
