/**
 * @module The parts of Jira's REST v3 answers the tools read (developer.atlassian.com/cloud/jira/platform/
 * rest/v3), checked loosely: fields Jira adds later pass, a field the tools need missing or mistyped is an
 * `upstream_error`. Jira leaves out a field that has no value, or sends it as null.
 */
import { z } from "zod";
import { AdfNodeSchema } from "./adf/adf-node.js";

const Named = z.looseObject({ name: z.string() });

export const UserShape = z.looseObject({
  accountId: z.string().optional(),
  displayName: z.string().optional(),
});

export const StatusShape = z.looseObject({
  name: z.string(),
  statusCategory: z.looseObject({ key: z.string().optional(), name: z.string().optional() }).optional(),
});

export const CommentShape = z.looseObject({
  id: z.string(),
  author: UserShape.optional(),
  body: AdfNodeSchema.nullish(),
  created: z.string().optional(),
  updated: z.string().optional(),
});

/** The fields the tools ask for: `summary,status,assignee,reporter,issuetype,priority,labels,…`. */
export const IssueFieldsShape = z.looseObject({
  summary: z.string().nullish(),
  status: StatusShape.nullish(),
  assignee: UserShape.nullish(),
  reporter: UserShape.nullish(),
  issuetype: Named.nullish(),
  priority: Named.nullish(),
  labels: z.array(z.string()).nullish(),
  project: z.looseObject({ key: z.string(), name: z.string().optional() }).nullish(),
  parent: z.looseObject({ key: z.string() }).nullish(),
  created: z.string().nullish(),
  updated: z.string().nullish(),
  description: AdfNodeSchema.nullish(),
});

/** `GET /issue/{key}/comment`'s PageOfComments: a page of comments and how many the issue has. */
export const CommentsPageShape = z.looseObject({
  comments: z.array(CommentShape),
  total: z.number().int().optional(),
});

export const IssueShape = z.looseObject({
  id: z.string(),
  key: z.string(),
  self: z.string().optional(),
  fields: IssueFieldsShape.default({}),
});
export type JiraIssue = z.output<typeof IssueShape>;

/** POST /rest/api/3/search/jql: a page of issues; `nextPageToken` only while more follow. */
export const SearchPageShape = z.looseObject({
  issues: z.array(IssueShape).default([]),
  nextPageToken: z.string().nullish(),
  isLast: z.boolean().optional(),
});

export const ProjectShape = z.looseObject({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  projectTypeKey: z.string().optional(),
  style: z.string().optional(),
});

/** GET /rest/api/3/project/search: PageBeanProject, paged by startAt until isLast. */
export const ProjectPageShape = z.looseObject({
  values: z.array(ProjectShape).default([]),
  startAt: z.number().int().optional(),
  maxResults: z.number().int().optional(),
  total: z.number().int().optional(),
  isLast: z.boolean().optional(),
});

export const TransitionShape = z.looseObject({
  id: z.string(),
  name: z.string(),
  to: StatusShape.optional(),
  isAvailable: z.boolean().optional(),
});

export const TransitionsShape = z.looseObject({ transitions: z.array(TransitionShape).default([]) });
export type JiraTransition = z.output<typeof TransitionShape>;

/** POST /rest/api/3/issue: 201 CreatedIssue. */
export const CreatedIssueShape = z.looseObject({
  id: z.string(),
  key: z.string(),
  self: z.string().optional(),
});
