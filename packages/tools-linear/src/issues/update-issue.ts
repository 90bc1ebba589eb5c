/**
 * @module `linear_update_issue`: changes an issue's fields. Linear has no transitions: the workflow state is
 * one of those fields, so moving an issue is `stateId` here, checked against the issue's team's states
 * (the query linear_list_states runs) before anything is written.
 */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { linearTool } from "../linear-env.js";
import { ISSUE_FIELD_LIMITS, issueField, issueFields } from "../linear-inputs.js";
import { assertTeamState, teamStates } from "../teams/team-states.js";
import { cleanSummary, ISSUE_SUMMARY_FIELDS, IssueSummary, summaryLine } from "./issue-shapes.js";

const ISSUE_TEAM_QUERY = `query LinearIssueTeam($id: String!) { issue(id: $id) { id identifier team { id } } }`;

const UPDATE_MUTATION = `mutation LinearUpdateIssue($id: String!, $input: IssueUpdateInput!) {
  issueUpdate(id: $id, input: $input) { success issue { ${ISSUE_SUMMARY_FIELDS} } }
}`;

const { TITLE_MAX, MAX_LABELS } = ISSUE_FIELD_LIMITS;
const CHANGES = ["title", "description", "stateId", "priority", "assigneeId", "labelIds"] as const;

export const updateIssue = linearTool({
  name: "linear_update_issue",
  description:
    "Changes fields of one Linear issue (by identifier ENG-123 or id): title, markdown description, priority, assignee (null to unassign), labels (the list replaces the issue's labels) or workflow state. In Linear a state is a field, not a transition: to move an issue to In Progress or Done, pass that state's id as stateId, from linear_list_states for the issue's team; a state of another team is refused before anything is written. Fields left out stay as they are. To add a remark use linear_comment instead. Needs a person's approval.",
  category: "project",
  effect: "external-write",
  cost: "io",
  input: z
    .strictObject({
      issue: issueField,
      title: issueFields.title.optional().describe(`a new title, one line (at most ${TITLE_MAX} characters)`),
      description: issueFields.description
        .optional()
        .describe("a new description in markdown, replacing the old"),
      stateId: issueFields.stateId.optional(),
      priority: issueFields.priority.optional(),
      assigneeId: issueFields.assigneeId
        .nullable()
        .optional()
        .describe("the id (a UUID) of the user to assign, or null to unassign"),
      labelIds: issueFields.labelIds
        .optional()
        .describe(
          `the ids (UUIDs) of the labels the issue should have, replacing its labels; at most ${MAX_LABELS}`,
        ),
    })
    .refine((input) => CHANGES.some((field) => input[field] !== undefined), {
      message: `name at least one field to change: ${CHANGES.join(", ")}`,
    }),
  async run({ issue, stateId, ...fields }, context, env) {
    const linear = env.linear(context);
    if (stateId !== undefined) {
      const owner = await linear.request(
        `issue ${issue}`,
        ISSUE_TEAM_QUERY,
        { id: issue },
        z.object({
          issue: z.object({ id: z.string(), identifier: z.string(), team: z.object({ id: z.string() }) }),
        }),
      );
      assertTeamState(await teamStates(linear, owner.issue.team.id), stateId);
    }
    const input = Object.fromEntries(
      Object.entries({ ...fields, stateId, title: fields.title?.trim() }).filter(
        ([, value]) => value !== undefined,
      ),
    );
    const what = `the update of issue ${issue}`;
    const answer = await linear.request(
      what,
      UPDATE_MUTATION,
      { id: issue, input },
      z.object({ issueUpdate: z.object({ success: z.boolean(), issue: IssueSummary.nullable() }) }),
    );
    if (!answer.issueUpdate.success || answer.issueUpdate.issue === null) {
      throw new ToolFailure("upstream_error", `Linear did not apply ${what} and said no more`, {
        retryable: false,
      });
    }
    const updated = cleanSummary(answer.issueUpdate.issue);
    return {
      content: `Updated (${Object.keys(input).join(", ")}): ${summaryLine(updated)}`,
      data: { issue: updated, changed: Object.keys(input) },
      provenance: { source: updated.url || linear.endpoint, trusted: false },
    };
  },
});
