/**
 * @module GitHub's pull request payloads cut to what a model acts on. A REST pull request is ~20 KB, most of
 * it two copies of a repository; a model needs the number, state, branches and their SHAs, whether it can
 * be merged, and the text. The body is capped and the cap is said.
 */
import { capText, labelNames, login } from "../github-shapes.js";

// biome-ignore lint/suspicious/noExplicitAny: GitHub's payloads, read field by field.
type Payload = any;

/** One pull request in a list: who, what, where from and to, and whether it is done. */
export function pullSummary(pull: Payload) {
  return {
    number: pull.number as number,
    title: pull.title as string,
    state: pull.state as "open" | "closed",
    draft: (pull.draft ?? false) as boolean,
    merged: pull.merged_at !== null && pull.merged_at !== undefined,
    author: login(pull.user),
    /** `owner:branch`, so a fork's branch is told from this repository's. */
    head: pull.head.label as string,
    base: pull.base.ref as string,
    labels: labelNames(pull.labels),
    createdAt: pull.created_at as string,
    updatedAt: pull.updated_at as string,
    closedAt: (pull.closed_at ?? null) as string | null,
    mergedAt: (pull.merged_at ?? null) as string | null,
    url: pull.html_url as string,
  };
}

/** One line of a list: `#12 Title [open, draft] hubot:feature → main by hubot`. */
export function pullLine(pull: {
  number: number;
  title: string;
  state: string;
  draft: boolean;
  merged: boolean;
  author: string | null;
  head?: string;
  base?: string;
}): string {
  const state = [pull.merged ? "merged" : pull.state, pull.draft ? "draft" : ""].filter(Boolean).join(", ");
  const branches = pull.head && pull.base ? ` ${pull.head} → ${pull.base}` : "";
  return `#${pull.number} ${pull.title} [${state}]${branches} by ${pull.author ?? "ghost"}`;
}

const refOf = (ref: Payload) => ({
  ref: ref.ref as string,
  sha: ref.sha as string,
  /** Null when the fork it came from was deleted. */
  repository: (ref.repo?.full_name ?? null) as string | null,
});

/** One pull request read whole: its branches and SHAs, mergeability, size, reviewers and body. */
export function pullDetail(pull: Payload) {
  const body = capText(pull.body);
  return {
    ...pullSummary(pull),
    head: { label: pull.head.label as string, ...refOf(pull.head) },
    base: refOf(pull.base),
    mergeable: (pull.mergeable ?? null) as boolean | null,
    mergeableState: pull.mergeable_state as string,
    mergeNote: mergeNote(pull),
    mergedBy: login(pull.merged_by),
    // Before a merge this is GitHub's test merge commit, which no one can act on.
    mergeCommitSha: (pull.merged ? pull.merge_commit_sha : null) as string | null,
    autoMerge: (pull.auto_merge?.merge_method ?? null) as string | null,
    commits: pull.commits as number,
    additions: pull.additions as number,
    deletions: pull.deletions as number,
    changedFiles: pull.changed_files as number,
    comments: pull.comments as number,
    reviewComments: pull.review_comments as number,
    requestedReviewers: ((pull.requested_reviewers ?? []) as Payload[]).map(login),
    requestedTeams: ((pull.requested_teams ?? []) as Payload[]).map((team) => team.slug as string),
    assignees: ((pull.assignees ?? []) as Payload[]).map(login),
    milestone: (pull.milestone?.title ?? null) as string | null,
    maintainerCanModify: pull.maintainer_can_modify as boolean,
    locked: pull.locked as boolean,
    body: body.text,
    bodyTruncated: body.truncated,
  };
}

/**
 * What GitHub's mergeable fields mean for the next step. The states are GitHub's MergeStateStatus, which
 * REST sends lower-cased as `mergeable_state`.
 */
const MERGE_STATES: Record<string, string> = {
  clean: "it can be merged",
  unstable: "it can be merged, but some status checks are failing or pending",
  has_hooks: "it can be merged; the repository runs pre-receive hooks on merge",
  dirty: "it has merge conflicts with its base: they must be resolved on the head branch before merging",
  blocked:
    "merging is blocked by branch protection or rulesets (required reviews or checks not yet satisfied)",
  behind: "the head branch is behind its base, and the base requires it to be up to date before merging",
  draft: "it is a draft: it must be marked ready for review before it can be merged",
};

function mergeNote(pull: Payload): string {
  if (pull.merged) return "it is merged";
  if (pull.state === "closed") return "it is closed without being merged";
  // GitHub computes mergeability in the background after a change and answers null until it is done.
  if (pull.mergeable === null || pull.mergeable === undefined || pull.mergeable_state === "unknown") {
    return "GitHub is still computing whether it can be merged: read it again in a few seconds";
  }
  return MERGE_STATES[pull.mergeable_state] ?? `GitHub's merge state is ${pull.mergeable_state}`;
}

/** One pull request as GitHub's issue search returns it (no branches; its repository named). */
export function searchedPull(item: Payload) {
  return {
    repository: String(item.repository_url).split("/").slice(-2).join("/"),
    number: item.number as number,
    title: item.title as string,
    state: item.state as "open" | "closed",
    draft: (item.draft ?? false) as boolean,
    merged: item.pull_request?.merged_at !== null && item.pull_request?.merged_at !== undefined,
    author: login(item.user),
    labels: labelNames(item.labels),
    comments: item.comments as number,
    createdAt: item.created_at as string,
    updatedAt: item.updated_at as string,
    closedAt: (item.closed_at ?? null) as string | null,
    url: item.html_url as string,
  };
}

/** A tool's answer carrying one whole pull request: its body is the author's, so it is untrusted. */
export function pullOutput(pull: Payload) {
  const detail = pullDetail(pull);
  return {
    content: JSON.stringify(detail),
    data: detail,
    truncated: detail.bodyTruncated,
    provenance: { source: detail.url, trusted: false },
  };
}
