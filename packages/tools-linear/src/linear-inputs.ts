/**
 * @module Input fields the Linear tools share, checked before any request. Linear's ids are UUIDs (its
 * inputs say "in UUID v4 format"); an issue is also named by its identifier, the team key and number
 * (`ENG-123`), which `issue(id:)` and `CommentCreateInput.issueId` take as well. Linear's schema states no
 * length for a title, a description, a comment or a team key: those bounds are ours, and say so.
 */
import { HIDDEN_CHARACTERS } from "toolreg/toolkit";
import { z } from "zod";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Team key, a dash, the issue's number. Keys are letters and digits; ten is our bound, not Linear's. */
const ISSUE_IDENTIFIER = /^[A-Za-z][A-Za-z0-9]{0,9}-[1-9][0-9]{0,8}$/;

const TITLE_MAX = 255;
const MARKDOWN_MAX = 65_536;
/** Labels one write sets at most: our bound, not Linear's. */
const MAX_LABELS = 20;

/** A Linear id: what the list and search tools give as `id`. */
function uuidField(what: string, where: string) {
  return z
    .string()
    .regex(UUID, `a Linear ${what} id is a UUID such as 9cfb482a-81e3-4154-b5b9-2c805e70a02d (${where})`)
    .transform((id) => id.toLowerCase());
}

export const teamIdField = uuidField("team", "find it with linear_list_teams").describe(
  "the team's id (a UUID) as linear_list_teams gives it",
);

const stateIdField = uuidField("workflow state", "find it with linear_list_states").describe(
  "the workflow state's id (a UUID) as linear_list_states gives it for the issue's team",
);

export const issueField = z
  .string()
  .refine(
    (value) => UUID.test(value) || ISSUE_IDENTIFIER.test(value),
    "an issue's identifier such as ENG-123, or its id (a UUID), as linear_search_issues gives them",
  )
  .transform((value) => (UUID.test(value) ? value.toLowerCase() : value.toUpperCase()))
  .describe("the issue: its identifier such as ENG-123, or its id (a UUID)");

/** One line of text a person would type: no control or invisible characters. */
export function lineField(max: number, what: string) {
  return z
    .string()
    .max(max, `${what} takes at most ${max} characters`)
    .refine((text) => text.trim().length > 0, `${what} is blank`)
    .refine(
      (text) => !HIDDEN_CHARACTERS.test(text),
      `${what} must be one line without control or invisible characters`,
    );
}

/** Markdown: line breaks and tabs are its own, other control and invisible characters are refused. */
export function markdownField(what: string) {
  return z
    .string()
    .max(MARKDOWN_MAX, `${what} takes at most ${MARKDOWN_MAX} characters`)
    .refine((text) => text.trim().length > 0, `${what} is blank`)
    .refine(
      (text) => !HIDDEN_CHARACTERS.test(text.replace(/[\n\t]|\r\n/g, "")),
      `${what} may hold line breaks and tabs but no other control or invisible characters`,
    );
}

/** Linear's priority: "0 = No priority, 1 = Urgent, 2 = High, 3 = Medium, 4 = Low" (IssueCreateInput.priority). */
const priorityField = z.int().min(0).max(4).describe("0 no priority, 1 urgent, 2 high, 3 medium, 4 low");

/** An issue's fields as the create and update tools take them; each tool says what it does with them. */
export const issueFields = {
  title: lineField(TITLE_MAX, "the title"),
  description: markdownField("the description"),
  priority: priorityField,
  stateId: stateIdField,
  assigneeId: uuidField("user", "a user's id"),
  labelIds: z.array(uuidField("label", "a label's id")).max(MAX_LABELS, `at most ${MAX_LABELS} labels`),
};
export const ISSUE_FIELD_LIMITS = { TITLE_MAX, MAX_LABELS };

/** How many items a list returns; the deployment's maxItems caps it. */
export const limitField = z
  .int()
  .min(1)
  .max(250)
  .optional()
  .describe("the most items to return (default and cap: the deployment's maxItems, 50 unless configured)");
