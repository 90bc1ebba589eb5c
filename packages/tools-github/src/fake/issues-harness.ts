/** @module The GitHub harness over one issue store, with the issue, label and milestone routes: what the issue tools' tests start from. */
import { type GithubHarness, startGithubHarness } from "./github-harness.js";
import { issueRoutesOver } from "./issues-routes.js";
import { type FakeIssue, type IssueStore, seedIssueStore } from "./issues-store.js";
import { labelRoutesOver } from "./labels-routes.js";

export interface IssueHarness {
  gh: GithubHarness;
  store: IssueStore;
}

export async function startIssueHarness(config: { maxItems?: number } = {}): Promise<IssueHarness> {
  const store = seedIssueStore();
  const gh = await startGithubHarness([issueRoutesOver(store), labelRoutesOver(store)], config);
  return { gh, store };
}

/** octocat/hello-world in the store: the repository the tests act on. */
export const helloWorld = (store: IssueStore) => {
  const repository = store.find("octocat", "hello-world");
  if (!repository) throw new Error("the seed has no octocat/hello-world");
  return repository;
};

/** Adds `count` open issues whose titles hold `word`, for tests that need more than a page. */
export function addIssues(store: IssueStore, count: number, word: string): FakeIssue[] {
  const repository = helloWorld(store);
  const added = Array.from({ length: count }, (_, index): FakeIssue => {
    const number = repository.issues.length + index + 1;
    const when = new Date(Date.UTC(2025, 0, 1) + number * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    return {
      number,
      title: `${word} ${number}`,
      body: null,
      state: "open",
      stateReason: null,
      author: "hubot",
      labels: [],
      assignees: [],
      milestone: null,
      locked: false,
      isPullRequest: false,
      createdAt: when,
      updatedAt: when,
      closedAt: null,
    };
  });
  repository.issues.push(...added);
  return added;
}

/** GitHub's answer when the primary rate limit is spent: 403, remaining 0, the reset as epoch seconds. */
export function primaryRateLimit(resetInSeconds: number, resource = "core", limit = 5000) {
  return {
    status: 403,
    body: {
      message: "API rate limit exceeded for user ID 1.",
      documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
    },
    headers: {
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": "0",
      "x-ratelimit-used": String(limit),
      "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + resetInSeconds),
      "x-ratelimit-resource": resource,
    },
  };
}

/** GitHub's answer to a secondary rate limit: 403, its message, and how long to wait. */
export function secondaryRateLimit(retryAfterSeconds: number) {
  return {
    status: 403,
    body: {
      message:
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.",
      documentation_url:
        "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
    },
    headers: { "retry-after": String(retryAfterSeconds) },
  };
}
