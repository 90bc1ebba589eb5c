/**
 * @module Input fields the Jira tools share, checked to Jira's own forms before any request: a key that is
 * not an issue key (a path, a second parameter, a status name where an id belongs) is refused here, not sent.
 */
import { hasHiddenCharacters } from "toolreg/toolkit";
import { z } from "zod";
import { markdownOverBounds } from "./adf/markdown-bounds.js";

/** An issue key: the project key (a capital letter, then capitals, digits or _), a hyphen, the number. */
export const ISSUE_KEY = /^[A-Z][A-Z0-9_]+-\d+$/;

export const issueKeyField = z
  .string()
  .max(64)
  .regex(ISSUE_KEY, "an issue key such as PROJ-123 (capitals, a hyphen, the number)")
  .describe("the issue's key, e.g. PROJ-123, as jira_search_issues gives it");

/** Jira Cloud's project key: a capital letter, then capitals, digits or _, at most 10 characters in all. */
export const projectKeyField = z
  .string()
  .max(10, "a project key of at most 10 characters")
  .regex(
    /^[A-Z][A-Z0-9_]+$/,
    "a project key such as PROJ (capitals, digits and _), as jira_list_projects gives it",
  )
  .describe("the project's key, e.g. PROJ, as jira_list_projects gives it");

/** No control or invisible characters: they have no place in a query, a name or a one-line field. */
const visibleOnly = (text: string) => !/\p{Cc}/u.test(text) && !hasHiddenCharacters(text);

/**
 * JQL, bounded: Jira documents no length limit, and a query past a few thousand characters is no query a
 * model should send. One line, with no control characters.
 */
export const jqlField = z
  .string()
  .min(1)
  .max(4_000, "JQL of at most 4,000 characters")
  .refine((jql) => jql.trim().length > 0, "the JQL is empty")
  .refine(visibleOnly, "JQL on one line, without control or invisible characters")
  .describe(
    'a JQL query, e.g. project = PROJ AND status = "In Progress" ORDER BY updated DESC (it must be bounded: name a project, an assignee or a date)',
  );

/** A one-line text field: a summary, a label, a name. */
export const oneLineField = (what: string, max: number) =>
  z
    .string()
    .min(1)
    .max(max, `${what} of at most ${max} characters`)
    .refine((text) => text.trim().length > 0, `${what} is empty`)
    .refine(visibleOnly, `${what} on one line, without control or invisible characters`);

/** Jira's summary: one line, at most 255 characters. */
export const summaryField = oneLineField("a summary", 255).describe("the issue's one-line title");

/**
 * A rich-text field written as markdown and sent as Atlassian Document Format. Jira keeps at most 32,767
 * characters in a text field, so longer markdown is refused here rather than cut there.
 */
export const markdownField = (what: string) =>
  z
    .string()
    .min(1)
    .max(32_000, `${what} of at most 32,000 characters (Jira keeps 32,767 in a text field)`)
    .refine((text) => text.trim().length > 0, `${what} is empty`)
    .refine((text) => !/[\p{Cc}]/u.test(text.replace(/[\n\t\r]/g, "")), `${what} without control characters`)
    .superRefine((text, check) => {
      // Refused before the parser runs: deep nesting or a flood of emphasis would hold the CPU for seconds.
      const overBounds = markdownOverBounds(text);
      if (overBounds !== undefined) check.addIssue({ code: "custom", message: `${what}: ${overBounds}` });
    })
    .describe(
      `${what} in markdown: headings, lists, **bold**, *italic*, \`code\`, fenced code blocks, > quotes, links and tables become Jira's rich text`,
    );

/** A label: Jira refuses spaces in one, and keeps at most 255 characters. */
export const labelsField = z
  .array(
    z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^\s\p{Cc}]+$/u, "a label has no spaces or control characters"),
  )
  .max(20)
  .describe("labels, each without spaces");

/** An Atlassian account id: `557058:…` or a 24-character hex id, as Jira's user fields give it. */
export const accountIdField = z
  .string()
  .regex(/^[A-Za-z0-9:_-]{1,128}$/, "an Atlassian account id, e.g. 5b10a2844c20165700ede21g")
  .describe("the assignee's Atlassian account id (an issue's assignee.accountId shows the form)");

/** A priority by name, as the site defines them (Highest, High, Medium, Low, Lowest by default). */
export const priorityField = oneLineField("a priority name", 60).describe(
  "the priority's name on this site, e.g. High",
);

/** How many items a search or list returns; the toolkit's configured maximum caps it. */
export const limitField = z
  .int()
  .min(1)
  .max(200)
  .optional()
  .describe("the most items to return (default and cap: the deployment's maxItems, 50 unless configured)");
