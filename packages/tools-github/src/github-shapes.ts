/**
 * @module GitHub's payloads cut to what a model needs. A REST issue is ~3 KB of URLs and node ids; a model
 * acts on its number, title, state, people, labels and text. Long text is capped and the cap is said.
 */

/** A page of the repository on github.com, for provenance where GitHub's payload names none. */
export function repositoryPage(owner: string, repo: string, page = ""): string {
  return `https://github.com/${owner}/${repo}${page}`;
}

/** Characters of a body, comment or file a tool returns before cutting. */
export const TEXT_CAP = 20_000;

export function capText(
  text: string | null | undefined,
  cap = TEXT_CAP,
): { text: string; truncated: boolean } {
  const value = text ?? "";
  return value.length <= cap
    ? { text: value, truncated: false }
    : { text: value.slice(0, cap), truncated: true };
}

interface Named {
  login?: string;
  name?: string;
}

export const login = (user: Named | null | undefined) => user?.login ?? null;
export const labelNames = (labels: (Named | string)[] | undefined) =>
  (labels ?? []).map((label) => (typeof label === "string" ? label : (label.name ?? "")));

// biome-ignore lint/suspicious/noExplicitAny: GitHub's issue payload, read field by field.
export function issueSummary(issue: any) {
  return {
    number: issue.number as number,
    title: issue.title as string,
    state: issue.state as string,
    stateReason: (issue.state_reason ?? null) as string | null,
    author: login(issue.user),
    labels: labelNames(issue.labels),
    assignees: ((issue.assignees ?? []) as Named[]).map(login),
    milestone: (issue.milestone?.title ?? null) as string | null,
    comments: issue.comments as number,
    isPullRequest: issue.pull_request !== undefined,
    createdAt: issue.created_at as string,
    updatedAt: issue.updated_at as string,
    closedAt: (issue.closed_at ?? null) as string | null,
    url: issue.html_url as string,
  };
}
