/**
 * @module `linear_create_issue`: a new issue in one team. Its id is derived from the call's idempotency key,
 * so a retry creates nothing twice; a `stateId` is checked against the team's states before the write.
 */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { createOnce } from "../linear-create-once.js";
import { linearTool } from "../linear-env.js";
import { derivedId } from "../linear-ids.js";
import {
  lineField,
  markdownField,
  priorityField,
  stateIdField,
  TITLE_MAX,
  teamIdField,
  uuidField,
} from "../linear-inputs.js";
import { assertTeamState, teamStates } from "../teams/team-states.js";
import { cleanSummary, ISSUE_SUMMARY_FIELDS, IssueSummary, summaryLine } from "./issue-shapes.js";

const CREATE_MUTATION = `mutation LinearCreateIssue($input: IssueCreateInput!) {
  issueCreate(input: $input) { success issue { ${ISSUE_SUMMARY_FIELDS} } }
}`;

/** The issue an earlier attempt created under this id, read after a failed create. */
export const ISSUE_BY_ID_QUERY = `query LinearIssueById($id: String!) { issue(id: $id) { ${ISSUE_SUMMARY_FIELDS} } }`;

const IssuePayload = z.object({ success: z.boolean(), issue: IssueSummary.nullable() });

export const MAX_LABELS = 20;

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
    title: lineField(TITLE_MAX, "the title").describe(
      `the issue's title, one line (at most ${TITLE_MAX} characters)`,
    ),
    description: markdownField("the description").optional().describe("the issue's description in markdown"),
    priority: priorityField.optional(),
    stateId: stateIdField.optional(),
    assigneeId: uuidField("user", "a user's id").optional().describe("the id (a UUID) of the user to assign"),
    labelIds: z
      .array(uuidField("label", "a label's id"))
      .max(MAX_LABELS)
      .optional()
      .describe(`the ids (UUIDs) of labels to set, at most ${MAX_LABELS}`),
  }),
  async run({ teamId, title, description, priority, stateId, assigneeId, labelIds }, context, env) {
    const linear = env.linear(context);
    if (stateId !== undefined) assertTeamState(await teamStates(linear, teamId), stateId);
    const id = derivedId("issue", context.idempotencyKey);
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
    const created = await createOnce(
      async () => {
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
      () =>
        linear
          .request(what, ISSUE_BY_ID_QUERY, { id }, z.object({ issue: IssueSummary }))
          .then((answer) => answer.issue),
    );
    const issue = cleanSummary(created.value);
    return {
      content: `${created.existed ? "Already created by an earlier attempt of this call" : "Created"}: ${summaryLine(issue)}`,
      data: { issue, alreadyCreated: created.existed },
      provenance: { source: issue.url || linear.endpoint, trusted: false },
    };
  },
});
