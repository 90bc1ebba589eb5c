/**
 * @module The fake's issue tracker: repositories holding issues and pull requests (GitHub counts every pull
 * request as an issue), labels, milestones and comments. Every fake starts from the same seed; a test may
 * change its store (lock an issue, make search time out) and read what the tools did to it.
 */

export interface FakeLabel {
  id: number;
  name: string;
  description: string | null;
  color: string;
  default: boolean;
}

export interface FakeMilestone {
  number: number;
  title: string;
  state: "open" | "closed";
  description: string | null;
  dueOn: string | null;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  stateReason: "completed" | "not_planned" | "duplicate" | "reopened" | null;
  author: string;
  labels: string[];
  assignees: string[];
  milestone: number | null;
  locked: boolean;
  isPullRequest: boolean;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface FakeComment {
  id: number;
  issueNumber: number;
  body: string;
  author: string;
  createdAt: string;
}

export interface FakeIssueRepository {
  owner: string;
  name: string;
  /** GitHub answers 410 Gone to the issue endpoints of a repository whose issues are turned off. */
  issuesEnabled: boolean;
  issues: FakeIssue[];
  labels: FakeLabel[];
  milestones: FakeMilestone[];
  comments: FakeComment[];
}

export interface IssueStore {
  repositories: FakeIssueRepository[];
  /** Logins GitHub knows; an assignee outside them is refused with 422. */
  users: string[];
  /** Who the token belongs to: the author of what the tools create. */
  viewer: string;
  /** Whether the token may push: without it GitHub silently drops labels, assignees and milestones. */
  viewerCanPush: boolean;
  /** When set, the search API answers `incomplete_results: true`, as it does when a query times out. */
  searchTimesOut: boolean;
  /** The repository by name, as GitHub matches it: case-insensitively. */
  find(owner: string, repo: string): FakeIssueRepository | undefined;
  nextId(): number;
}

/** GitHub's own timestamp format: seconds, UTC, no fraction. */
export const timestamp = (date = new Date()) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

const at = (hours: number) => timestamp(new Date(Date.UTC(2024, 0, 1) + hours * 3_600_000));

type Seed = Partial<FakeIssue> & Pick<FakeIssue, "title">;

/** octocat/hello-world: twelve issues and pull requests mixed, as a repository's issue list shows them. */
const HELLO_WORLD: Seed[] = [
  { title: "Crash on start", labels: ["bug"], assignees: ["octocat"], milestone: 1, author: "monalisa" },
  { title: "Fix the crash on start", isPullRequest: true, author: "hubot" },
  { title: "Add a dark mode", labels: ["enhancement"], author: "monalisa" },
  { title: "Typo in the README", state: "closed", stateReason: "completed", author: "hubot" },
  { title: "Dark mode", isPullRequest: true, state: "closed", author: "monalisa" },
  { title: "Search is slow", labels: ["bug"], milestone: 1 },
  { title: "Issue 7", body: "It breaks.", labels: ["bug"] },
  { title: "How do I configure the proxy?", labels: ["question"], author: "hubot" },
  { title: "Heated thread", locked: true },
  { title: "Rewrite in Rust", state: "closed", stateReason: "not_planned", labels: ["enhancement"] },
  { title: "Docs for the proxy", isPullRequest: true, labels: ["question"] },
  { title: "Flaky test on Windows", labels: ["bug"], assignees: ["monalisa", "hubot"] },
];

export function seedIssueStore(): IssueStore {
  let id = 5000;
  const nextId = () => ++id;
  const issues = HELLO_WORLD.map((seed, index): FakeIssue => {
    const number = index + 1;
    const state = seed.state ?? "open";
    return {
      number,
      body: `Body of #${number}.`,
      state,
      stateReason: null,
      author: "octocat",
      labels: [],
      assignees: [],
      milestone: null,
      locked: false,
      isPullRequest: false,
      createdAt: at(number),
      updatedAt: at(number + 100),
      closedAt: state === "closed" ? at(number + 100) : null,
      ...seed,
    };
  });
  const repositories: FakeIssueRepository[] = [
    {
      owner: "octocat",
      name: "hello-world",
      issuesEnabled: true,
      issues,
      labels: [
        {
          id: 208045946,
          name: "bug",
          description: "Something isn't working",
          color: "f29513",
          default: true,
        },
        {
          id: 208045947,
          name: "enhancement",
          description: "New feature or request",
          color: "a2eeef",
          default: true,
        },
        {
          id: 208045948,
          name: "question",
          description: "Further information is requested",
          color: "d876e3",
          default: true,
        },
        { id: 208045949, name: "good first issue", description: null, color: "7057ff", default: true },
      ],
      milestones: [
        {
          number: 1,
          title: "v1.0",
          state: "open",
          description: "The first release",
          dueOn: "2030-01-01T08:00:00Z",
        },
        { number: 2, title: "v0.9", state: "closed", description: null, dueOn: null },
        { number: 3, title: "v2.0", state: "open", description: null, dueOn: null },
      ],
      comments: [],
    },
    {
      owner: "octocat",
      name: "no-issues",
      issuesEnabled: false,
      issues: [],
      labels: [],
      milestones: [],
      comments: [],
    },
  ];
  return {
    repositories,
    users: ["octocat", "monalisa", "hubot"],
    viewer: "octocat",
    viewerCanPush: true,
    searchTimesOut: false,
    find: (owner, repo) =>
      repositories.find(
        (each) =>
          each.owner.toLowerCase() === owner.toLowerCase() && each.name.toLowerCase() === repo.toLowerCase(),
      ),
    nextId,
  };
}
