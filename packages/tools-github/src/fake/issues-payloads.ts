/**
 * @module The issue store as GitHub's payloads: each starts from GitHub's own example in its OpenAPI
 * description (issue, label, milestone, issue-comment, a search result item) with the store's values laid
 * over it, so every field the fake does not model is still GitHub's.
 */
import type {
  FakeComment,
  FakeIssue,
  FakeIssueRepository,
  FakeLabel,
  FakeMilestone,
} from "./issues-store.js";
import { example } from "./payloads.js";

const API = "https://api.github.com";
const WEB = "https://github.com";

const repositoryPath = (repository: FakeIssueRepository) => `${repository.owner}/${repository.name}`;

// biome-ignore lint/suspicious/noExplicitAny: GitHub's payloads, shaped by its examples.
type Payload = Record<string, any>;

let userIds = 0;
const userIdOf = new Map<string, number>();

export function userPayload(login: string): Payload {
  const base = example<Payload>("issue").user as Payload;
  let id = userIdOf.get(login);
  if (id === undefined) {
    id = ++userIds;
    userIdOf.set(login, id);
  }
  return {
    ...base,
    login,
    id,
    url: `${API}/users/${login}`,
    html_url: `${WEB}/${login}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
  };
}

export function labelPayload(repository: FakeIssueRepository, label: FakeLabel): Payload {
  return example<Payload>("label", {
    id: label.id,
    node_id: `LA_${label.id}`,
    url: `${API}/repos/${repositoryPath(repository)}/labels/${encodeURIComponent(label.name)}`,
    name: label.name,
    description: label.description,
    color: label.color,
    default: label.default,
  });
}

export function milestonePayload(repository: FakeIssueRepository, milestone: FakeMilestone): Payload {
  const issues = repository.issues.filter((issue) => issue.milestone === milestone.number);
  return example<Payload>("milestone", {
    url: `${API}/repos/${repositoryPath(repository)}/milestones/${milestone.number}`,
    html_url: `${WEB}/${repositoryPath(repository)}/milestone/${milestone.number}`,
    labels_url: `${API}/repos/${repositoryPath(repository)}/milestones/${milestone.number}/labels`,
    id: 1_002_600 + milestone.number,
    number: milestone.number,
    state: milestone.state,
    title: milestone.title,
    description: milestone.description,
    creator: userPayload("octocat"),
    open_issues: issues.filter((issue) => issue.state === "open").length,
    closed_issues: issues.filter((issue) => issue.state === "closed").length,
    closed_at: milestone.state === "closed" ? "2024-03-01T00:00:00Z" : null,
    due_on: milestone.dueOn,
  });
}

export function issuePayload(repository: FakeIssueRepository, issue: FakeIssue): Payload {
  const path = repositoryPath(repository);
  const api = `${API}/repos/${path}/issues/${issue.number}`;
  const milestone = repository.milestones.find((each) => each.number === issue.milestone);
  const payload = example<Payload>("issue", {
    id: 1_000_000 + issue.number,
    node_id: `I_${issue.number}`,
    url: api,
    repository_url: `${API}/repos/${path}`,
    labels_url: `${api}/labels{/name}`,
    comments_url: `${api}/comments`,
    events_url: `${api}/events`,
    html_url: `${WEB}/${path}/${issue.isPullRequest ? "pull" : "issues"}/${issue.number}`,
    number: issue.number,
    state: issue.state,
    state_reason: issue.stateReason,
    title: issue.title,
    body: issue.body,
    user: userPayload(issue.author),
    labels: issue.labels.map((name) => labelPayload(repository, labelNamed(repository, name))),
    assignee: issue.assignees[0] === undefined ? null : userPayload(issue.assignees[0]),
    assignees: issue.assignees.map(userPayload),
    milestone: milestone ? milestonePayload(repository, milestone) : null,
    locked: issue.locked,
    active_lock_reason: issue.locked ? "too heated" : null,
    comments: repository.comments.filter((comment) => comment.issueNumber === issue.number).length,
    closed_at: issue.closedAt,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_by: issue.state === "closed" ? userPayload("octocat") : null,
  });
  // GitHub marks a pull request listed as an issue by this key alone; a plain issue has none.
  if (issue.isPullRequest) {
    payload.pull_request = {
      url: `${API}/repos/${path}/pulls/${issue.number}`,
      html_url: `${WEB}/${path}/pull/${issue.number}`,
      diff_url: `${WEB}/${path}/pull/${issue.number}.diff`,
      patch_url: `${WEB}/${path}/pull/${issue.number}.patch`,
      merged_at: null,
    };
  } else {
    delete payload.pull_request;
  }
  // The issue endpoints of a repository do not repeat the repository in each issue.
  delete payload.repository;
  return payload;
}

/** A search hit: the issue's fields in the shape of GitHub's search result item, with its relevance score. */
export function searchItemPayload(repository: FakeIssueRepository, issue: FakeIssue): Payload {
  const base = example<{ items: Payload[] }>("issue-search-result-item-paginated").items[0] as Payload;
  const { pinned_comment: _pinned, ...issueFields } = issuePayload(repository, issue);
  const item: Payload = { ...structuredClone(base), ...issueFields, score: 1 };
  delete item.type;
  if (!issue.isPullRequest) delete item.pull_request;
  // GitHub's description of a search hit allows no null body (an issue's does): a hit without one has none.
  if (item.body === null) delete item.body;
  return item;
}

export function commentPayload(repository: FakeIssueRepository, comment: FakeComment): Payload {
  const path = repositoryPath(repository);
  return example<Payload>("issue-comment", {
    id: comment.id,
    node_id: `IC_${comment.id}`,
    url: `${API}/repos/${path}/issues/comments/${comment.id}`,
    html_url: `${WEB}/${path}/issues/${comment.issueNumber}#issuecomment-${comment.id}`,
    body: comment.body,
    user: userPayload(comment.author),
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
    issue_url: `${API}/repos/${path}/issues/${comment.issueNumber}`,
    author_association: "OWNER",
  });
}

/** A label the store holds, found as GitHub finds it: by name, case-insensitively. */
export function labelNamed(repository: FakeIssueRepository, name: string): FakeLabel {
  const found = repository.labels.find((label) => label.name.toLowerCase() === name.toLowerCase());
  if (!found) throw new Error(`the fake's ${repositoryPath(repository)} has no label ${name}`);
  return found;
}
