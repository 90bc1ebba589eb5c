/**
 * @module How the issue tools answer: one issue as its summary and its body, capped, as JSON; an issue as a
 * line of a list (list-answer.ts). Titles and bodies are written by users, so answers are untrusted.
 */
import { capText, issueSummary } from "../github-shapes.js";

// biome-ignore lint/suspicious/noExplicitAny: GitHub's issue payload, read field by field.
type IssuePayload = any;

/** One issue as a tool returns it; `note` says what GitHub did that the caller did not ask for. */
export function issueAnswer(payload: IssuePayload, note?: string) {
  const body = capText(payload.body);
  const issue = {
    ...issueSummary(payload),
    body: body.text,
    bodyTruncated: body.truncated,
    ...(note ? { note } : {}),
  };
  return {
    content: JSON.stringify(issue),
    data: issue,
    truncated: body.truncated,
    provenance: { source: issue.url, trusted: false },
  };
}

/** An issue in a list: no body (github_get_issue reads it), and no pull request flag (lists leave them out). */
export function issueListItem(payload: IssuePayload) {
  const { isPullRequest: _isPullRequest, ...summary } = issueSummary(payload);
  return summary;
}

export type IssueListItem = ReturnType<typeof issueListItem>;

/** `#12 open: Flaky test on Windows [bug] → monalisa, hubot · v1.0 · 3 comments` */
export function issueLine(issue: IssueListItem): string {
  const state = issue.stateReason && issue.state === "closed" ? `closed (${issue.stateReason})` : issue.state;
  const parts = [
    `#${issue.number} ${state}: ${issue.title}`,
    issue.labels.length > 0 ? `[${issue.labels.join(", ")}]` : "",
    issue.assignees.length > 0 ? `→ ${issue.assignees.join(", ")}` : "",
    issue.milestone ? `· ${issue.milestone}` : "",
    issue.comments > 0 ? `· ${issue.comments} comment${issue.comments === 1 ? "" : "s"}` : "",
  ];
  return parts.filter(Boolean).join(" ");
}
