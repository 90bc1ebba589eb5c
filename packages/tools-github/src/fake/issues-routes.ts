/**
 * @module The fake's issue endpoints over an issue store, each reproducing GitHub's documented behaviour
 * (the page named beside it): issue lists that include pull requests, writes that silently drop labels,
 * assignees and milestones without push access, 410 where issues are turned off, 403 on a locked issue.
 */
import type { Context, Hono } from "hono";
import type { FakeRoutes, GithubFake } from "./github-fake.js";
import { commentPayload, issuePayload } from "./issues-payloads.js";
import { issueSearchRoute } from "./issues-search-route.js";
import {
  type FakeIssue,
  type FakeIssueRepository,
  type IssueStore,
  seedIssueStore,
  timestamp,
} from "./issues-store.js";
import { notFound, pageOf, validationFailed } from "./pulls-answers.js";

const DOCS = "https://docs.github.com/rest/issues";

/** The issue routes over a fresh seed: what most tests need. */
export const issueRoutes: FakeRoutes = (app, fake) => issueRoutesOver(seedIssueStore())(app, fake);

/** The issue routes over a store the test holds, to change it or read what the tools did. */
export const issueRoutesOver =
  (store: IssueStore): FakeRoutes =>
  (app, fake) => {
    listIssues(app, fake, store);
    getIssue(app, fake, store);
    createIssue(app, fake, store);
    updateIssue(app, fake, store);
    createComment(app, fake, store);
    issueSearchRoute(app, fake, store);
  };

/** The repository of a request, or GitHub's 404 for one this credential cannot see. */
export function repositoryOf(
  c: Context,
  fake: GithubFake,
  store: IssueStore,
  documentation: string,
): FakeIssueRepository | Response {
  return (
    store.find(c.req.param("owner") ?? "", c.req.param("repo") ?? "") ?? notFound(c, fake, documentation)
  );
}

/**
 * The repository of an issue request, or GitHub's answer when there is none: 404, or 410 Gone where issues
 * are turned off ("If issues are disabled in the repository, the API returns a 410 Gone status",
 * docs.github.com/rest/issues/issues#create-an-issue).
 */
export function trackerOf(
  c: Context,
  fake: GithubFake,
  store: IssueStore,
  documentation: string,
): FakeIssueRepository | Response {
  const repository = repositoryOf(c, fake, store, documentation);
  if (repository instanceof Response || repository.issuesEnabled) return repository;
  return fake.json(c, 410, {
    message: "Issues are disabled for this repo",
    documentation_url: documentation,
    status: "410",
  });
}

/** The issue a request names in its repository, or GitHub's 404. */
export function issueOf(
  c: Context,
  fake: GithubFake,
  store: IssueStore,
  documentation: string,
): { repository: FakeIssueRepository; issue: FakeIssue } | Response {
  const repository = trackerOf(c, fake, store, documentation);
  if (repository instanceof Response) return repository;
  const issue = repository.issues.find((each) => each.number === Number(c.req.param("issue_number")));
  return issue ? { repository, issue } : notFound(c, fake, documentation);
}

/** docs.github.com/rest/issues/issues#list-repository-issues: pull requests included, marked by `pull_request`. */
function listIssues(app: Hono, fake: GithubFake, store: IssueStore) {
  const documentation = `${DOCS}/issues#list-repository-issues`;
  app.get("/repos/:owner/:repo/issues", (c) => {
    // GitHub documents no 410 for the list, unlike the single issue: a repository without issues lists none.
    const repository = repositoryOf(c, fake, store, documentation);
    if (repository instanceof Response) return repository;
    const query = (name: string) => c.req.query(name);
    const state = query("state") ?? "open";
    const labels = query("labels")?.split(",").filter(Boolean) ?? [];
    const since = query("since");
    const matches = repository.issues.filter(
      (issue) =>
        (state === "all" || issue.state === state) &&
        labels.every((label) => issue.labels.some((each) => each.toLowerCase() === label.toLowerCase())) &&
        matchesPerson(query("assignee"), issue.assignees) &&
        (query("creator") === undefined || issue.author === query("creator")) &&
        (query("mentioned") === undefined || (issue.body ?? "").includes(`@${query("mentioned")}`)) &&
        matchesMilestone(query("milestone"), issue.milestone) &&
        (since === undefined || issue.updatedAt >= since),
    );
    const sorted = sortIssues(matches, repository, query("sort") ?? "created", query("direction") ?? "desc");
    const page = pageOf(c, sorted);
    return fake.json(
      c,
      200,
      page.items.map((issue) => issuePayload(repository, issue)),
      page.headers,
    );
  });
}

/** `none` for no one, `*` for anyone, else a login. */
function matchesPerson(filter: string | undefined, logins: string[]): boolean {
  if (filter === undefined) return true;
  if (filter === "none") return logins.length === 0;
  if (filter === "*") return logins.length > 0;
  return logins.includes(filter);
}

/** A milestone number, `none` for none, `*` for any. */
function matchesMilestone(filter: string | undefined, milestone: number | null): boolean {
  if (filter === undefined) return true;
  if (filter === "none") return milestone === null;
  if (filter === "*") return milestone !== null;
  return milestone === Number(filter);
}

function sortIssues(issues: FakeIssue[], repository: FakeIssueRepository, sort: string, direction: string) {
  const comments = (issue: FakeIssue) =>
    repository.comments.filter((comment) => comment.issueNumber === issue.number).length;
  const compare = (a: FakeIssue, b: FakeIssue) =>
    sort === "comments"
      ? comments(a) - comments(b)
      : (sort === "updated" ? a.updatedAt : a.createdAt).localeCompare(
          sort === "updated" ? b.updatedAt : b.createdAt,
        );
  const sign = direction === "asc" ? 1 : -1;
  return [...issues].sort((a, b) => sign * (compare(a, b) || a.number - b.number));
}

/** docs.github.com/rest/issues/issues#get-an-issue */
function getIssue(app: Hono, fake: GithubFake, store: IssueStore) {
  app.get("/repos/:owner/:repo/issues/:issue_number", (c) => {
    const found = issueOf(c, fake, store, `${DOCS}/issues#get-an-issue`);
    if (found instanceof Response) return found;
    return fake.json(c, 200, issuePayload(found.repository, found.issue));
  });
}

interface IssueWrite {
  title?: string | number | null;
  body?: string | null;
  state?: "open" | "closed";
  state_reason?: FakeIssue["stateReason"];
  labels?: (string | { name?: string })[];
  assignees?: string[];
  milestone?: number | string | null;
}

/**
 * What a write may set, checked as GitHub checks it: an unknown assignee or milestone is a 422 naming the
 * field, a label the repository lacks is created (grey, no description). Without push access, labels,
 * assignees and milestone "are silently dropped" (the create and update docs say so for each).
 */
function applyWrite(
  c: Context,
  fake: GithubFake,
  store: IssueStore,
  repository: FakeIssueRepository,
  issue: FakeIssue,
  write: IssueWrite,
  documentation: string,
): Response | undefined {
  const invalid = (field: string, value: unknown) =>
    validationFailed(c, fake, documentation, [
      { value: String(value), resource: "Issue", field, code: "invalid" },
    ]);
  const unknownAssignee = write.assignees?.find((login) => !store.users.includes(login));
  if (unknownAssignee !== undefined) return invalid("assignees", unknownAssignee);
  const milestone =
    write.milestone === undefined || write.milestone === null ? write.milestone : Number(write.milestone);
  if (typeof milestone === "number" && !repository.milestones.some((each) => each.number === milestone)) {
    return invalid("milestone", write.milestone);
  }
  if (write.title !== undefined && write.title !== null) issue.title = String(write.title);
  if (write.body !== undefined) issue.body = write.body;
  if (write.state !== undefined && write.state !== issue.state) {
    issue.state = write.state;
    issue.closedAt = write.state === "closed" ? timestamp() : null;
    issue.stateReason = write.state_reason ?? (write.state === "closed" ? "completed" : "reopened");
  }
  if (store.viewerCanPush) {
    if (write.labels !== undefined) issue.labels = write.labels.map((label) => labelFor(repository, label));
    if (write.assignees !== undefined) issue.assignees = [...write.assignees];
    if (milestone !== undefined) issue.milestone = milestone;
  }
  issue.updatedAt = timestamp();
  return undefined;
}

/** The label's stored name, creating it as GitHub does when the repository has none of that name. */
export function labelFor(repository: FakeIssueRepository, label: string | { name?: string }): string {
  const name = typeof label === "string" ? label : (label.name ?? "");
  const found = repository.labels.find((each) => each.name.toLowerCase() === name.toLowerCase());
  if (found) return found.name;
  repository.labels.push({
    id: 300_000_000 + repository.labels.length,
    name,
    description: null,
    color: "ededed",
    default: false,
  });
  return name;
}

/** docs.github.com/rest/issues/issues#create-an-issue */
function createIssue(app: Hono, fake: GithubFake, store: IssueStore) {
  const documentation = `${DOCS}/issues#create-an-issue`;
  app.post("/repos/:owner/:repo/issues", async (c) => {
    const repository = trackerOf(c, fake, store, documentation);
    if (repository instanceof Response) return repository;
    const write = (await c.req.json()) as IssueWrite;
    if (write.title === undefined || write.title === null || write.title === "") {
      return validationFailed(c, fake, documentation, [
        { resource: "Issue", field: "title", code: "missing_field" },
      ]);
    }
    const now = timestamp();
    const issue: FakeIssue = {
      number: Math.max(0, ...repository.issues.map((each) => each.number)) + 1,
      title: "",
      body: null,
      state: "open",
      stateReason: null,
      author: store.viewer,
      labels: [],
      assignees: [],
      milestone: null,
      locked: false,
      isPullRequest: false,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
    };
    const refused = applyWrite(c, fake, store, repository, issue, write, documentation);
    if (refused) return refused;
    repository.issues.push(issue);
    const payload = issuePayload(repository, issue);
    return fake.json(c, 201, payload, { location: payload.url });
  });
}

/** docs.github.com/rest/issues/issues#update-an-issue: only the fields sent change. */
function updateIssue(app: Hono, fake: GithubFake, store: IssueStore) {
  const documentation = `${DOCS}/issues#update-an-issue`;
  app.patch("/repos/:owner/:repo/issues/:issue_number", async (c) => {
    const found = issueOf(c, fake, store, documentation);
    if (found instanceof Response) return found;
    const write = (await c.req.json()) as IssueWrite;
    const refused = applyWrite(c, fake, store, found.repository, found.issue, write, documentation);
    return refused ?? fake.json(c, 200, issuePayload(found.repository, found.issue));
  });
}

/**
 * docs.github.com/rest/issues/comments#create-an-issue-comment. On a locked conversation only people with
 * push access may comment; others get 403 "Unable to create comment because issue is locked."
 */
function createComment(app: Hono, fake: GithubFake, store: IssueStore) {
  const documentation = `${DOCS}/comments#create-an-issue-comment`;
  app.post("/repos/:owner/:repo/issues/:issue_number/comments", async (c) => {
    const found = issueOf(c, fake, store, documentation);
    if (found instanceof Response) return found;
    const { body } = (await c.req.json()) as { body?: string };
    if (body === undefined || body === "") {
      return validationFailed(c, fake, documentation, [
        { resource: "IssueComment", field: "body", code: "missing_field" },
      ]);
    }
    if (found.issue.locked && !store.viewerCanPush) {
      return fake.json(c, 403, {
        message: "Unable to create comment because issue is locked.",
        documentation_url: "https://docs.github.com/articles/locking-conversations/",
        status: "403",
      });
    }
    const comment = {
      id: store.nextId(),
      issueNumber: found.issue.number,
      body,
      author: store.viewer,
      createdAt: timestamp(),
    };
    found.repository.comments.push(comment);
    found.issue.updatedAt = comment.createdAt;
    const payload = commentPayload(found.repository, comment);
    return fake.json(c, 201, payload, { location: payload.url });
  });
}
