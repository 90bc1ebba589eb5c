/**
 * @module How the tools tell an issue: the few fields a model decides on, on one line each, with the link a
 * person opens. Everything here came from Jira and is untrusted text: one line, bounded.
 */
import { oneLine } from "toolreg/toolkit";
import type { JiraEnv } from "../jira-env.js";
import type { JiraIssue } from "../jira-shapes.js";

/** The fields a search asks for and a summary shows. */
export const SUMMARY_FIELDS = [
  "summary",
  "status",
  "assignee",
  "issuetype",
  "priority",
  "updated",
  "project",
];

export interface IssueSummary {
  key: string;
  summary: string;
  status: string | null;
  /** Jira's category of the status: new, indeterminate (in progress) or done. */
  statusCategory: string | null;
  type: string | null;
  priority: string | null;
  assignee: string | null;
  assigneeAccountId: string | null;
  updated: string | null;
  url: string | null;
}

export function issueSummaryOf(issue: JiraIssue, env: Pick<JiraEnv, "siteUrl">): IssueSummary {
  const { fields } = issue;
  return {
    key: issue.key,
    summary: oneLine(fields.summary ?? "", 300),
    status: nameOf(fields.status?.name),
    statusCategory: fields.status?.statusCategory?.key ?? null,
    type: nameOf(fields.issuetype?.name),
    priority: nameOf(fields.priority?.name),
    assignee: nameOf(fields.assignee?.displayName),
    assigneeAccountId: fields.assignee?.accountId ?? null,
    updated: fields.updated ?? null,
    url: issueUrl(env, issue.key),
  };
}

/** `KEY [Status] Summary (assignee)`: one issue on one line. */
export function issueLine(issue: IssueSummary): string {
  const who = issue.assignee ? ` (${issue.assignee})` : " (unassigned)";
  return `${issue.key} [${issue.status ?? "no status"}] ${issue.summary}${who}`;
}

export function issueUrl(env: Pick<JiraEnv, "siteUrl">, key: string): string | null {
  return env.siteUrl === undefined ? null : `${env.siteUrl}/browse/${key}`;
}

function nameOf(name: string | null | undefined): string | null {
  return name ? oneLine(name, 100) : null;
}
