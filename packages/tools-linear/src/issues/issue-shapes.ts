/**
 * @module The issue fields the Linear tools ask for, once: the GraphQL selection and the zod shape of its
 * answer, kept side by side so they cannot drift. Few fields, because Linear charges complexity per field
 * and per node; everything in them but ids is workspace members' text, returned as untrusted.
 */
import { oneLine } from "toolreg/toolkit";
import { z } from "zod";

/** The fields of an issue in a list or a write's answer. Valid on Issue and on IssueSearchResult. */
export const ISSUE_SUMMARY_FIELDS =
  "id identifier title url priority priorityLabel updatedAt state { id name type } team { id key name } assignee { id displayName }";

export const IssueSummary = z.object({
  id: z.string(),
  identifier: z.string(),
  title: z.string(),
  url: z.string(),
  priority: z.number(),
  priorityLabel: z.string(),
  updatedAt: z.string(),
  state: z.object({ id: z.string(), name: z.string(), type: z.string() }),
  team: z.object({ id: z.string(), key: z.string(), name: z.string() }),
  assignee: z.object({ id: z.string(), displayName: z.string() }).nullable(),
});
export type IssueSummary = z.output<typeof IssueSummary>;

/** What a model reads of an issue: vendor text on one line and bounded, links only when they are http(s). */
export function cleanSummary(issue: IssueSummary): IssueSummary {
  return {
    ...issue,
    title: oneLine(issue.title, 300),
    url: /^https?:\/\//i.test(issue.url) ? issue.url : "",
    priorityLabel: oneLine(issue.priorityLabel, 40),
    state: { ...issue.state, name: oneLine(issue.state.name, 80), type: oneLine(issue.state.type, 40) },
    team: { ...issue.team, key: oneLine(issue.team.key, 20), name: oneLine(issue.team.name, 80) },
    assignee: issue.assignee && { ...issue.assignee, displayName: oneLine(issue.assignee.displayName, 80) },
  };
}

/** One line per issue: `ENG-12 [In Progress] Title (High; Ada) url`. */
export function summaryLine(issue: IssueSummary): string {
  const who = issue.assignee ? `; ${issue.assignee.displayName}` : "";
  return `${issue.identifier} [${issue.state.name}] ${issue.title} (${issue.priorityLabel}${who}) ${issue.url}`.trim();
}
