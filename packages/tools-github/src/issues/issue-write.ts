/**
 * @module One write to an issue (create, update, close, reopen) and its answer. GitHub answers a write
 * without push access with 200 or 201 and silently drops the labels, assignees and milestone it was given
 * (the create and update docs say so for each); the answer says what was dropped, so a model does not
 * report a change that did not happen.
 */
import type { ToolContext } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";
import { issueAnswer } from "./issue-output.js";

/** What the write asked GitHub to set, to compare with what it set. */
export interface AskedFor {
  labels?: string[] | undefined;
  assignees?: string[] | undefined;
  milestone?: number | null | undefined;
}

export async function writeIssue(
  env: GithubEnv,
  context: ToolContext,
  route: string,
  params: Record<string, unknown>,
  what: string,
  asked: AskedFor = {},
) {
  const { data } = await env.github(context).request(route, params, what);
  return issueAnswer(data, droppedNote(asked, data));
}

// biome-ignore lint/suspicious/noExplicitAny: GitHub's issue payload, read field by field.
function droppedNote(asked: AskedFor, issue: any): string | undefined {
  const has = (names: string[], name: string) =>
    names.some((each) => each.toLowerCase() === name.toLowerCase());
  const labels: string[] = (issue.labels ?? []).map((label: { name?: string } | string) =>
    typeof label === "string" ? label : (label.name ?? ""),
  );
  const assignees: string[] = (issue.assignees ?? []).map((user: { login: string }) => user.login);
  const dropped = [
    ...(asked.labels ?? []).filter((name) => !has(labels, name)).map((name) => `label ${name}`),
    ...(asked.assignees ?? []).filter((login) => !has(assignees, login)).map((login) => `assignee ${login}`),
    ...(typeof asked.milestone === "number" && issue.milestone?.number !== asked.milestone
      ? [`milestone ${asked.milestone}`]
      : []),
  ];
  return dropped.length === 0
    ? undefined
    : `GitHub did not apply ${dropped.join(", ")}: it drops them silently when the credential has no push access to the repository`;
}
