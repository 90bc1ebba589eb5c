/**
 * @module The Jira site the fake serves: one account, projects enough to page through, issues with rich
 * text, and a three-status workflow (To Do, In Progress, Done) whose transitions lead to every status but
 * the current one, as a simplified Jira workflow allows. Shapes follow the REST v3 reference
 * (developer.atlassian.com/cloud/jira/platform/rest/v3): UserDetails, StatusDetails, Project, IssueBean.
 */
import type { AdfNode } from "../adf/adf-node.js";

export const SITE = "https://acme.atlassian.net";
export const ACCOUNT = {
  email: "ann@acme.example",
  apiToken: "ATATT3xFfGF0T3stT0ken-jira",
  accountId: "5b10a2844c20165700ede21g",
  displayName: "Ann Lee",
};
/** What a tenant stores for the account: `email:token`, sent as HTTP Basic. */
export const STORED_CREDENTIAL = `${ACCOUNT.email}:${ACCOUNT.apiToken}`;
export const OTHER_ACCOUNT_ID = "557058:f58131cb-b67d-43c7-b30d-6b58d40bd077";

export const user = (accountId: string, displayName: string) => ({
  self: `${SITE}/rest/api/3/user?accountId=${accountId}`,
  accountId,
  displayName,
  active: true,
  accountType: "atlassian",
  timeZone: "Europe/Berlin",
});

const CATEGORIES = {
  new: {
    self: `${SITE}/rest/api/3/statuscategory/2`,
    id: 2,
    key: "new",
    colorName: "blue-gray",
    name: "To Do",
  },
  indeterminate: {
    self: `${SITE}/rest/api/3/statuscategory/4`,
    id: 4,
    key: "indeterminate",
    colorName: "yellow",
    name: "In Progress",
  },
  done: { self: `${SITE}/rest/api/3/statuscategory/3`, id: 3, key: "done", colorName: "green", name: "Done" },
};

/** The workflow: each status, and the transition (by id) that leads to it. */
export const WORKFLOW = [
  {
    transitionId: "11",
    transitionName: "To Do",
    status: { id: "10000", name: "To Do", category: CATEGORIES.new },
  },
  {
    transitionId: "21",
    transitionName: "Start progress",
    status: { id: "3", name: "In Progress", category: CATEGORIES.indeterminate },
  },
  {
    transitionId: "31",
    transitionName: "Done",
    status: { id: "10001", name: "Done", category: CATEGORIES.done },
  },
] as const;

export type WorkflowStatus = (typeof WORKFLOW)[number]["status"];

export const statusDetails = (status: WorkflowStatus) => ({
  self: `${SITE}/rest/api/3/status/${status.id}`,
  description: "",
  iconUrl: `${SITE}/images/icons/statuses/generic.png`,
  name: status.name,
  id: status.id,
  statusCategory: status.category,
});

export const PROJECT_KEYS = ["PROJ", "OPS", "WEB", "APP", "DATA", "SEC", "HR"] as const;
export const projectOf = (key: string, index: number) => ({
  self: `${SITE}/rest/api/3/project/${10000 + index}`,
  id: String(10000 + index),
  key,
  name: `${key[0]}${key.slice(1).toLowerCase()} project`,
  projectTypeKey: "software" as const,
  simplified: false,
  style: "classic" as const,
  isPrivate: false,
});

export interface StoredComment {
  id: string;
  author: ReturnType<typeof user>;
  body: AdfNode;
  created: string;
}

export interface StoredIssue {
  id: string;
  key: string;
  project: string;
  summary: string;
  status: WorkflowStatus;
  issueType: string;
  priority: string | null;
  assignee: ReturnType<typeof user> | null;
  labels: string[];
  description: AdfNode | null;
  comments: StoredComment[];
  parent: string | null;
  created: string;
  updated: string;
}

export const ISSUE_TYPES = ["Task", "Bug", "Story", "Epic"];
export const PRIORITIES = ["Highest", "High", "Medium", "Low", "Lowest"];

/** PROJ-1's description: rich text with nodes markdown has no word for. */
export const PROJ_1_DESCRIPTION: AdfNode = {
  type: "doc",
  version: 1,
  content: [
    { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Steps" }] },
    {
      type: "orderedList",
      attrs: { order: 1 },
      content: [
        {
          type: "listItem",
          content: [{ type: "paragraph", content: [{ type: "text", text: "Open the cart" }] }],
        },
        {
          type: "listItem",
          content: [
            {
              type: "paragraph",
              content: [
                { type: "text", text: "Click " },
                { type: "text", text: "Pay", marks: [{ type: "strong" }] },
              ],
            },
          ],
        },
      ],
    },
    {
      type: "panel",
      attrs: { panelType: "warning" },
      content: [{ type: "paragraph", content: [{ type: "text", text: "Seen on mobile only" }] }],
    },
    { type: "codeBlock", attrs: { language: "json" }, content: [{ type: "text", text: '{"status": 500}' }] },
  ],
};

export interface JiraSite {
  issues: Map<string, StoredIssue>;
  projects: ReturnType<typeof projectOf>[];
  /**
   * The most items a page holds whatever maxResults asks: Jira may return fewer than asked ("API may return
   * fewer items per page where a large number of fields are requested", the search reference says).
   */
  pageCap: number;
  nextId(): number;
}

/** A fresh site: PROJ-1 (described, commented) to PROJ-12, OPS-1 and OPS-2. */
export function seedSite(): JiraSite {
  const issues = new Map<string, StoredIssue>();
  const ann = user(ACCOUNT.accountId, ACCOUNT.displayName);
  const add = (project: string, number: number, extra: Partial<StoredIssue> = {}) => {
    const key = `${project}-${number}`;
    issues.set(key, {
      id: String(20000 + issues.size),
      key,
      project,
      summary: `${project} issue ${number}`,
      status: WORKFLOW[0].status,
      issueType: "Task",
      priority: "Medium",
      assignee: null,
      labels: [],
      description: null,
      comments: [],
      parent: null,
      created: "2026-11-02T09:00:00.000+0000",
      updated: `2026-11-${String(10 + number).padStart(2, "0")}T09:00:00.000+0000`,
      ...extra,
    });
  };
  add("PROJ", 1, {
    summary: "Checkout fails with a 500 on Pay",
    issueType: "Bug",
    priority: "High",
    assignee: ann,
    labels: ["checkout", "mobile"],
    description: PROJ_1_DESCRIPTION,
    comments: [
      {
        id: "10100",
        author: user(OTHER_ACCOUNT_ID, "Mia Krystof"),
        created: "2026-11-03T10:00:00.000+0000",
        body: {
          type: "doc",
          version: 1,
          content: [
            {
              type: "paragraph",
              content: [
                { type: "mention", attrs: { id: ACCOUNT.accountId, text: "@Ann Lee" } },
                { type: "text", text: " can you look? " },
                { type: "emoji", attrs: { shortName: ":eyes:", text: "👀" } },
              ],
            },
          ],
        },
      },
    ],
  });
  for (let number = 2; number <= 12; number++) add("PROJ", number);
  add("OPS", 1);
  add("OPS", 2);
  let id = 30000;
  return { issues, projects: PROJECT_KEYS.map(projectOf), pageCap: 100, nextId: () => id++ };
}
