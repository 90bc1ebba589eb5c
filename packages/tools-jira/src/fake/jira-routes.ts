/**
 * @module The fake's REST v3 routes over a JiraSite, each as its reference page documents it
 * (developer.atlassian.com/cloud/jira/platform/rest/v3/…):
 * - api-group-issue-search: `POST /search/jql` pages by an opaque `nextPageToken`, left out on the last
 *   page with `isLast: true` (as Jira does: JRACLOUD-92184); a project the JQL names that does not exist
 *   is a 400 ErrorCollection;
 * - api-group-projects: `GET /project/search` pages by `startAt` and `maxResults` with `isLast`, `query`
 *   matching key or name case-insensitively;
 * - api-group-issues: `GET /issue/{key}` with `fields`, 404 "Issue does not exist or you do not have
 *   permission to see it."; `POST /issue` 201 CreatedIssue or 400 with per-field `errors`; `PUT` 204;
 *   `GET` and `POST /issue/{key}/transitions` (204; an id not available is a 400);
 * - api-group-issue-comments: `GET /issue/{key}/comment` a PageOfComments by `startAt` and `maxResults`,
 *   `orderBy` created or -created; `POST /issue/{key}/comment` 201 Comment.
 * Rich text must be an ADF document whose nodes nest as ADF allows (adf-check.ts): a string or a malformed
 * document is a 400, as Jira refuses it.
 */
import type { Hono } from "hono";
import type { AdfNode } from "../adf/adf-node.js";
import { adfProblem } from "./adf-check.js";
import type { JiraFake } from "./jira-fake.js";
import {
  ACCOUNT,
  ISSUE_TYPES,
  type JiraSite,
  PRIORITIES,
  SITE,
  type StoredIssue,
  statusDetails,
  user,
  WORKFLOW,
} from "./jira-site.js";

const API = "/rest/api/3";
const errors = (errorMessages: string[], fieldErrors: Record<string, string> = {}) => ({
  errorMessages,
  errors: fieldErrors,
});
const NO_ISSUE = errors(["Issue does not exist or you do not have permission to see it."]);

export function jiraRoutes(site: JiraSite) {
  return (app: Hono, fake: JiraFake) => {
    app.post(`${API}/search/jql`, async (c) => {
      const body = (await c.req.json()) as {
        jql?: string;
        maxResults?: number;
        fields?: string[];
        nextPageToken?: string;
      };
      const project = /project\s*=\s*"?([A-Z][A-Z0-9_]+)"?/.exec(body.jql ?? "")?.[1];
      if (project && !site.projects.some((each) => each.key === project)) {
        return fake.json(c, 400, errors([`The value '${project}' does not exist for the field 'project'.`]));
      }
      const found = [...site.issues.values()].filter((issue) => !project || issue.project === project);
      const offset = body.nextPageToken ? Number(Buffer.from(body.nextPageToken, "base64url").toString()) : 0;
      const size = Math.min(Math.max(1, body.maxResults ?? 50), site.pageCap);
      const page = found.slice(offset, offset + size);
      const more = offset + size < found.length;
      return fake.json(c, 200, {
        issues: page.map((issue) => issueBean(issue, body.fields ?? ["id"])),
        ...(more ? { nextPageToken: Buffer.from(String(offset + size)).toString("base64url") } : {}),
        isLast: !more,
      });
    });

    app.get(`${API}/project/search`, (c) => {
      const startAt = Number(c.req.query("startAt") ?? "0");
      const maxResults = Math.min(Number(c.req.query("maxResults") ?? "50"), site.pageCap);
      const query = c.req.query("query")?.toLowerCase();
      const matching = site.projects.filter(
        (project) =>
          !query || project.key.toLowerCase().includes(query) || project.name.toLowerCase().includes(query),
      );
      const values = matching.slice(startAt, startAt + maxResults);
      const isLast = startAt + maxResults >= matching.length;
      return fake.json(c, 200, {
        self: `${SITE}${API}/project/search?startAt=${startAt}&maxResults=${maxResults}`,
        ...(isLast
          ? {}
          : {
              nextPage: `${SITE}${API}/project/search?startAt=${startAt + maxResults}&maxResults=${maxResults}`,
            }),
        maxResults,
        startAt,
        total: matching.length,
        isLast,
        values,
      });
    });

    app.get(`${API}/issue/:issueIdOrKey`, (c) => {
      const issue = site.issues.get(c.req.param("issueIdOrKey"));
      if (!issue) return fake.json(c, 404, NO_ISSUE);
      return fake.json(c, 200, issueBean(issue, (c.req.query("fields") ?? "*all").split(",")));
    });

    app.post(`${API}/issue`, async (c) => {
      const { fields = {} } = (await c.req.json()) as { fields?: Record<string, unknown> };
      const project = site.projects.find((each) => each.key === (fields.project as { key?: string })?.key);
      const issueType = (fields.issuetype as { name?: string } | undefined)?.name;
      const problems: Record<string, string> = {
        ...(project ? {} : { project: "valid project is required" }),
        ...(issueType && ISSUE_TYPES.includes(issueType) ? {} : { issuetype: "Specify a valid issue type" }),
        ...(typeof fields.summary === "string" && fields.summary
          ? {}
          : { summary: "You must specify a summary of the issue." }),
        ...fieldProblems(site, fields),
      };
      if (!project || Object.keys(problems).length > 0) return fake.json(c, 400, errors([], problems));
      const number = 1 + [...site.issues.values()].filter((each) => each.project === project.key).length;
      const key = `${project.key}-${number}`;
      const id = String(site.nextId());
      const now = new Date().toISOString().replace("Z", "+0000");
      site.issues.set(key, {
        id,
        key,
        project: project.key,
        summary: String(fields.summary),
        status: WORKFLOW[0].status,
        issueType: String(issueType),
        priority: (fields.priority as { name?: string } | undefined)?.name ?? "Medium",
        assignee: assigneeOf(fields),
        labels: (fields.labels as string[] | undefined) ?? [],
        description: (fields.description as AdfNode | undefined) ?? null,
        comments: [],
        parent: (fields.parent as { key?: string } | undefined)?.key ?? null,
        created: now,
        updated: now,
      });
      return fake.json(c, 201, { id, key, self: `${SITE}${API}/issue/${id}` });
    });

    app.put(`${API}/issue/:issueIdOrKey`, async (c) => {
      const issue = site.issues.get(c.req.param("issueIdOrKey"));
      if (!issue) return fake.json(c, 404, NO_ISSUE);
      const { fields = {} } = (await c.req.json()) as { fields?: Record<string, unknown> };
      const problems = fieldProblems(site, fields);
      if (Object.keys(problems).length > 0) return fake.json(c, 400, errors([], problems));
      if (typeof fields.summary === "string") issue.summary = fields.summary;
      if (fields.description !== undefined) issue.description = fields.description as AdfNode;
      if (Array.isArray(fields.labels)) issue.labels = fields.labels as string[];
      if (fields.priority !== undefined) issue.priority = (fields.priority as { name: string }).name;
      if (fields.assignee !== undefined) issue.assignee = assigneeOf(fields);
      return fake.json(c, 204);
    });

    app.get(`${API}/issue/:issueIdOrKey/transitions`, (c) => {
      const issue = site.issues.get(c.req.param("issueIdOrKey"));
      if (!issue) return fake.json(c, 404, NO_ISSUE);
      return fake.json(c, 200, { expand: "transitions", transitions: transitionsOf(issue) });
    });

    app.post(`${API}/issue/:issueIdOrKey/transitions`, async (c) => {
      const issue = site.issues.get(c.req.param("issueIdOrKey"));
      if (!issue) return fake.json(c, 404, NO_ISSUE);
      const body = (await c.req.json()) as {
        transition?: { id?: string };
        update?: { comment?: { add?: { body?: unknown } }[] };
      };
      const id = body.transition?.id;
      const step = WORKFLOW.find((each) => each.transitionId === id && each.status.id !== issue.status.id);
      if (!step) return fake.json(c, 400, errors([`Transition id '${id}' is not valid for this issue.`]));
      // A bug's Done asks for a resolution on its screen: sent without fields, Jira answers 400.
      if (issue.issueType === "Bug" && step.status.name === "Done") {
        return fake.json(c, 400, errors([], { resolution: "Resolution is required." }));
      }
      const added = body.update?.comment?.[0]?.add?.body;
      if (added !== undefined) {
        if (adfProblem(added)) return fake.json(c, 400, errors([], { comment: ADF_REQUIRED }));
        addComment(site, issue, added as AdfNode);
      }
      issue.status = step.status;
      return fake.json(c, 204);
    });

    app.get(`${API}/issue/:issueIdOrKey/comment`, (c) => {
      const issue = site.issues.get(c.req.param("issueIdOrKey"));
      if (!issue) return fake.json(c, 404, NO_ISSUE);
      const startAt = Number(c.req.query("startAt") ?? "0");
      const maxResults = Math.min(Number(c.req.query("maxResults") ?? "100"), site.pageCap);
      const ordered = c.req.query("orderBy") === "-created" ? [...issue.comments].reverse() : issue.comments;
      return fake.json(c, 200, {
        comments: ordered.slice(startAt, startAt + maxResults).map((each) => commentBean(issue, each)),
        maxResults,
        startAt,
        total: issue.comments.length,
      });
    });

    app.post(`${API}/issue/:issueIdOrKey/comment`, async (c) => {
      const issue = site.issues.get(c.req.param("issueIdOrKey"));
      if (!issue) return fake.json(c, 404, NO_ISSUE);
      const { body } = (await c.req.json()) as { body?: unknown };
      if (adfProblem(body)) return fake.json(c, 400, errors([], { comment: ADF_REQUIRED }));
      return fake.json(c, 201, commentBean(issue, addComment(site, issue, body as AdfNode)));
    });
  };
}

const ADF_REQUIRED = "Operation value must be an Atlassian Document (see the Atlassian Document Format)";

function fieldProblems(site: JiraSite, fields: Record<string, unknown>): Record<string, string> {
  const known = new Set([
    "project",
    "issuetype",
    "summary",
    "description",
    "labels",
    "priority",
    "assignee",
    "parent",
  ]);
  const problems: Record<string, string> = {};
  for (const name of Object.keys(fields)) {
    if (!known.has(name))
      problems[name] = `Field '${name}' cannot be set. It is not on the appropriate screen, or unknown.`;
  }
  if (fields.description !== undefined && adfProblem(fields.description)) problems.description = ADF_REQUIRED;
  const priority = (fields.priority as { name?: string } | undefined)?.name;
  if (fields.priority !== undefined && !PRIORITIES.includes(String(priority))) {
    problems.priority = `Priority name '${priority}' is not valid`;
  }
  const parent = (fields.parent as { key?: string } | undefined)?.key;
  if (parent !== undefined && !site.issues.has(parent))
    problems.parent = `Could not find issue by id or key.`;
  return problems;
}

function assigneeOf(fields: Record<string, unknown>) {
  const accountId = (fields.assignee as { accountId?: string } | null | undefined)?.accountId;
  if (accountId === undefined) return null;
  return user(accountId, accountId === ACCOUNT.accountId ? ACCOUNT.displayName : "Mia Krystof");
}

function addComment(site: JiraSite, issue: StoredIssue, body: AdfNode) {
  const comment = {
    id: String(site.nextId()),
    author: user(ACCOUNT.accountId, ACCOUNT.displayName),
    body,
    created: new Date().toISOString().replace("Z", "+0000"),
  };
  issue.comments.push(comment);
  return comment;
}

function commentBean(issue: StoredIssue, comment: StoredIssue["comments"][number]) {
  return {
    self: `${SITE}${API}/issue/${issue.id}/comment/${comment.id}`,
    id: comment.id,
    author: comment.author,
    body: comment.body,
    updateAuthor: comment.author,
    created: comment.created,
    updated: comment.created,
    jsdPublic: true,
  };
}

/**
 * The transitions from the issue's status, and one whose condition fails for the connected account
 * (`isAvailable: false`, as Jira lists a transition a condition hides when asked to: "Archive", id 91).
 */
function transitionsOf(issue: StoredIssue) {
  const moves = WORKFLOW.filter((step) => step.status.id !== issue.status.id).map((step) => ({
    id: step.transitionId,
    name: step.transitionName,
    to: statusDetails(step.status),
    hasScreen: issue.issueType === "Bug" && step.status.name === "Done",
    isGlobal: true,
    isInitial: false,
    isAvailable: true,
    isConditional: false,
    isLooped: false,
  }));
  const archive = { ...(moves.at(-1) as (typeof moves)[number]), id: "91", name: "Archive" };
  return [...moves, { ...archive, hasScreen: false, isAvailable: false, isConditional: true }];
}

/** An IssueBean with the fields asked for (`*all` for every one). */
function issueBean(issue: StoredIssue, wanted: readonly string[]) {
  const all: Record<string, unknown> = {
    summary: issue.summary,
    status: statusDetails(issue.status),
    assignee: issue.assignee,
    reporter: user(ACCOUNT.accountId, ACCOUNT.displayName),
    issuetype: { self: `${SITE}${API}/issuetype/1`, id: "1", name: issue.issueType, subtask: false },
    priority: issue.priority ? { self: `${SITE}${API}/priority/3`, id: "3", name: issue.priority } : null,
    labels: issue.labels,
    project: {
      self: `${SITE}${API}/project/${issue.project}`,
      key: issue.project,
      name: `${issue.project} project`,
    },
    ...(issue.parent ? { parent: { key: issue.parent } } : {}),
    created: issue.created,
    updated: issue.updated,
    description: issue.description,
    comment: {
      comments: issue.comments.map((each) => commentBean(issue, each)),
      maxResults: issue.comments.length,
      total: issue.comments.length,
      startAt: 0,
    },
  };
  const fields = wanted.includes("*all")
    ? all
    : Object.fromEntries(Object.entries(all).filter(([name]) => wanted.includes(name)));
  return {
    expand: "renderedFields,names,schema,operations",
    id: issue.id,
    self: `${SITE}${API}/issue/${issue.id}`,
    key: issue.key,
    fields,
  };
}
