/**
 * @module The fake's pull request payloads: GitHub's own examples (components/examples in its OpenAPI
 * description) with the fields a pull request's state decides laid over them, so every other field keeps
 * GitHub's shape.
 */
import { example } from "./payloads.js";

/** A pull request as the fake keeps it; the payloads are built from it on each answer. */
export interface FakePull {
  owner: string;
  repo: string;
  number: number;
  title: string;
  body: string | null;
  author: string;
  state: "open" | "closed";
  draft: boolean;
  merged: boolean;
  head: { owner: string; ref: string; sha: string };
  base: { ref: string; sha: string };
  /** Null while GitHub is still computing it (a fresh or changed pull request). */
  mergeable: boolean | null;
  mergeableState: string;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
  mergedBy: string | null;
  mergeCommitSha: string | null;
}

type Json = Record<string, unknown>;

const htmlRoot = "https://github.com";
const apiRoot = "https://api.github.com";

/** GitHub's example user with another login. */
export function userPayload(login: string): Json {
  const user = example<Json>("pull-request").user as Json;
  return { ...user, login, url: `${apiRoot}/users/${login}`, html_url: `${htmlRoot}/${login}` };
}

function refPayload(pull: FakePull, side: "head" | "base", ref: Json): Json {
  const owner = side === "head" ? pull.head.owner : pull.owner;
  const { ref: name, sha } = side === "head" ? pull.head : pull.base;
  const repository = ref.repo as Json;
  return {
    ...ref,
    label: `${owner}:${name}`,
    ref: name,
    sha,
    user: userPayload(owner),
    repo: {
      ...repository,
      name: pull.repo,
      full_name: `${owner}/${pull.repo}`,
      owner: userPayload(owner),
      html_url: `${htmlRoot}/${owner}/${pull.repo}`,
    },
  };
}

/** The fields both the full and the list payload take from the fake's state. */
function common(pull: FakePull, shape: Json): Json {
  const path = `${pull.owner}/${pull.repo}`;
  return {
    url: `${apiRoot}/repos/${path}/pulls/${pull.number}`,
    html_url: `${htmlRoot}/${path}/pull/${pull.number}`,
    number: pull.number,
    state: pull.state,
    locked: false,
    active_lock_reason: null,
    title: pull.title,
    body: pull.body,
    user: userPayload(pull.author),
    draft: pull.draft,
    head: refPayload(pull, "head", shape.head as Json),
    base: refPayload(pull, "base", shape.base as Json),
    created_at: pull.createdAt,
    updated_at: pull.updatedAt,
    closed_at: pull.closedAt,
    merged_at: pull.mergedAt,
    merge_commit_sha: pull.mergeCommitSha,
    auto_merge: null,
  };
}

/** GET /repos/{owner}/{repo}/pulls/{pull_number}: the full payload (`pull-request`). */
export function pullPayload(pull: FakePull): Json {
  const shape = example<Json>("pull-request");
  return {
    ...shape,
    ...common(pull, shape),
    merged: pull.merged,
    mergeable: pull.mergeable,
    rebaseable: pull.mergeable,
    mergeable_state: pull.mergeableState,
    merged_by: pull.mergedBy === null ? null : userPayload(pull.mergedBy),
    // GitHub's example team lacks the `type` its own schema requires; no team is asked here.
    requested_teams: [],
  };
}

/** One item of GET /repos/{owner}/{repo}/pulls (`pull-request-simple`: no mergeability, no counts). */
export function simplePullPayload(pull: FakePull): Json {
  const shape = example<Json>("pull-request-simple");
  return { ...shape, ...common(pull, shape), requested_teams: [] };
}

/** One item of GET /search/issues for a pull request (`issue-search-result-item`). */
export function searchedPullPayload(pull: FakePull): Json {
  const items = example<{ items: Json[] }>("issue-search-result-item-paginated").items;
  const shape = items[0] as Json;
  const path = `${pull.owner}/${pull.repo}`;
  // The search item's schema has `body` as a string, not nullable: an empty body is left out.
  const { body: _body, ...rest } = shape;
  return {
    ...rest,
    ...(pull.body === null ? {} : { body: pull.body }),
    url: `${apiRoot}/repos/${path}/issues/${pull.number}`,
    repository_url: `${apiRoot}/repos/${path}`,
    html_url: `${htmlRoot}/${path}/pull/${pull.number}`,
    number: pull.number,
    title: pull.title,
    user: userPayload(pull.author),
    state: pull.state,
    state_reason: null,
    draft: pull.draft,
    locked: false,
    labels: [],
    assignee: null,
    milestone: null,
    created_at: pull.createdAt,
    updated_at: pull.updatedAt,
    closed_at: pull.closedAt,
    pull_request: {
      ...(shape.pull_request as Json),
      merged_at: pull.mergedAt,
      url: `${apiRoot}/repos/${path}/pulls/${pull.number}`,
      html_url: `${htmlRoot}/${path}/pull/${pull.number}`,
    },
  };
}
