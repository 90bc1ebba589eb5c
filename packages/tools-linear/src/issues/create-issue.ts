/**
 * @module `linear_create_issue`: a new issue in one team. Its id is derived from the call's idempotency key,
 * so a retry creates nothing twice; a `stateId` is checked against the team's states before the write.
 */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { createOnce } from "../linear-create-once.js";
import { linearTool } from "../linear-env.js";
import { derivedId } from "../linear-ids.js";
import { ISSUE_FIELD_LIMITS, issueFields, teamIdField } from "../linear-inputs.js";
import { assertTeamState, teamStates } from "../teams/team-states.js";
import { cleanSummary, ISSUE_SUMMARY_FIELDS, IssueSummary, summaryLine } from "./issue-shapes.js";

const CREATE_MUTATION = `mutation LinearCreateIssue($input: IssueCreateInput!) {
  issueCreate(input: $input) { success issue { ${ISSUE_SUMMARY_FIELDS} } }
}`;

/** The issue made under this id, read after a failed create. */
const ISSUE_BY_ID_QUERY = `query LinearIssueById($id: String!) { issue(id: $id) { ${ISSUE_SUMMARY_FIELDS} } }`;

const IssuePayload = z.object({ success: z.boolean(), issue: IssueSummary.nullable() });

const { TITLE_MAX, MAX_LABELS } = ISSUE_FIELD_LIMITS;

export const createIssue = linearTool({
  name: "linear_create_issue",
  description:
    "Creates a Linear issue in one team (its id from linear_list_teams) with a title and optionally a markdown description, priority, assignee, labels and workflow state (a state id from linear_list_states for that team; the team's default state otherwise). Returns the new issue's identifier (ENG-123) and link. To change an existing issue use linear_update_issue; to add to its discussion use linear_comment. Needs a person's approval.",
  category: "project",
  effect: "external-write",
  cost: "io",
  upstreamDeduplicates: true,
  input: z.strictObject({
    teamId: teamIdField,
    title: issueFields.title.describe(`the issue's title, one line (at most ${TITLE_MAX} characters)`),
    description: issueFields.description.optional().describe("the issue's description in markdown"),
    priority: issueFields.priority.optional(),
    stateId: issueFields.stateId.optional(),
    assigneeId: issueFields.assigneeId.optional().describe("the id (a UUID) of the user to assign"),
    labelIds: issueFields.labelIds
      .optional()
      .describe(`the ids (UUIDs) of labels to set, at most ${MAX_LABELS}`),
  }),
  async run({ teamId, title, description, priority, stateId, assigneeId, labelIds }, context, env) {
    const linear = env.linear(context);
    if (stateId !== undefined) assertTeamState(await teamStates(linear, teamId), stateId);
    const id = derivedId("linear_create_issue", context);
    const input = {
      id,
      teamId,
      title: title.trim(),
      ...(description === undefined ? {} : { description }),
      ...(priority === undefined ? {} : { priority }),
      ...(stateId === undefined ? {} : { stateId }),
      ...(assigneeId === undefined ? {} : { assigneeId }),
      ...(labelIds === undefined ? {} : { labelIds }),
    };
    const what = `the new issue "${title.trim().slice(0, 60)}"`;
    const created = await createOnce({
      what,
      create: async () => {
        const answer = await linear.request(
          what,
          CREATE_MUTATION,
          { input },
          z.object({ issueCreate: IssuePayload }),
        );
        if (!answer.issueCreate.success || answer.issueCreate.issue === null) {
          throw new ToolFailure("upstream_error", `Linear did not create ${what} and said no more`, {
            retryable: false,
          });
        }
        return answer.issueCreate.issue;
      },
      existing: () =>
        linear
          .request(what, ISSUE_BY_ID_QUERY, { id }, z.object({ issue: IssueSummary }))
          .then((answer) => answer.issue),
      // The id is this call's own; a found issue of another team or title is not what this call asked for.
      matches: (found) => found.team.id === teamId && found.title === input.title,
    });
    const issue = cleanSummary(created.value);
    return {
      content: `${created.recovered ? "Created (Linear's answer was lost; the issue was found by its id)" : "Created"}: ${summaryLine(issue)}`,
      data: { issue, recovered: created.recovered },
      provenance: { source: issue.url || linear.endpoint, trusted: false },
    };
  },
});
