/**
 * @module How the issue tools answer. One issue: its summary and its body, capped, as JSON. A list: a line
 * per item for the model to read, the items as data, and what the bound left out. Titles, bodies, label and
 * milestone descriptions are written by users, so every answer that carries them is marked untrusted.
 */
import { boundNote, type CollectedPages } from "toolreg/toolkit";
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

export interface ListAnswer<Item> {
  /** What the items are, plural: "open issues of octocat/hello-world". */
  what: string;
  items: Item[];
  collected: CollectedPages<unknown>;
  line(item: Item): string;
  /** Where the user-written text came from; none when nothing user-written is returned. */
  source: string | undefined;
  /** Said after the count: pull requests left out, a search that timed out. */
  notes?: (string | undefined)[];
  /** More data beside the items (a search's total). */
  extra?: Record<string, unknown>;
}

export function listAnswer<Item>({
  what,
  items,
  collected,
  line,
  source,
  notes = [],
  extra = {},
}: ListAnswer<Item>) {
  const head = [boundNote({ ...collected, items }, what), ...notes].filter(Boolean).join("; ");
  return {
    content: [`${head}${items.length > 0 ? ":" : "."}`, ...items.map(line)].join("\n"),
    data: { items, complete: collected.complete, ...extra },
    truncated: !collected.complete,
    ...(source === undefined || items.length === 0 ? {} : { provenance: { source, trusted: false } }),
  };
}

/** The bound a list tool walks to: what the model asked for, never past the deployment's maximum. */
export const boundOf = (limit: number | undefined, maxItems: number) => Math.min(limit ?? maxItems, maxItems);
