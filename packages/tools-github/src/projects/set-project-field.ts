/** @module `github_set_project_field`: sets one field of a project item — text, number, date, single-select option or iteration. */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { resolveFieldValue } from "./field-value.js";
import { projectItemInput } from "./project-inputs.js";
import { findItemTarget, requireItem } from "./project-target.js";

const SET_FIELD = /* GraphQL */ `
  mutation SetProjectField($projectId: ID!, $itemId: ID!, $fieldId: ID!, $value: ProjectV2FieldValue!) {
    updateProjectV2ItemFieldValue(
      input: { projectId: $projectId, itemId: $itemId, fieldId: $fieldId, value: $value }
    ) {
      projectV2Item { id }
    }
  }
`;

/** Characters of a text value; GitHub documents no limit, this keeps a project cell a cell. */
const TEXT_VALUE_MAX = 1_024;

export const setProjectField = githubTool({
  name: "github_set_project_field",
  description:
    "Sets one field of an issue's or pull request's item in a GitHub project (Projects v2): a single-select field by the option's name (e.g. Status to In Progress), an iteration field by the iteration's title (e.g. Sprint 3), a date field (YYYY-MM-DD), a number field or a text field. The issue must already be in the project (github_add_project_item). An unknown field, option or iteration is refused with the valid ones named; github_get_project lists them. Assignees, labels and milestone are the issue's own: change them on the issue.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["project", "repo"],
  input: z.object({
    ...projectItemInput,
    field: z
      .string()
      .trim()
      .min(1)
      .max(256)
      .describe("the field's name as the project shows it, e.g. Status, Sprint, Estimate, Due"),
    value: z
      .union([z.string().max(TEXT_VALUE_MAX), z.number()])
      .describe(
        "the value: an option's name for a single-select field, an iteration's title for an iteration field, YYYY-MM-DD for a date field, a number for a number field, the text for a text field",
      ),
  }),
  async run(input, context, env) {
    const github = env.github(context);
    const target = await findItemTarget(github, input);
    const itemId = requireItem(target);
    const resolved = resolveFieldValue(target.fields, input.field, input.value);
    await github.graphql(
      SET_FIELD,
      { projectId: target.projectId, itemId, fieldId: resolved.field.id, value: resolved.value },
      `field ${resolved.field.name} of ${input.owner}/${input.repo}#${input.issue_number} in project ${input.project_number} of ${input.project_owner}`,
    );
    const result = { ...target.summary, field: resolved.field.name, value: resolved.shown };
    return {
      content: JSON.stringify(result),
      data: result,
      provenance: { source: target.summary.item.url, trusted: false },
    };
  },
});
