/**
 * @module The fake's issue search (docs.github.com/rest/search/search#search-issues-and-pull-requests): the
 * qualifiers the tools send (repo, is, type, state, label, author, assignee) and words matched in titles
 * and bodies. Like GitHub it answers with its own rate-limit resource (`search`, 30 a minute), a 422 for a
 * missing query or a repository it cannot search, and `incomplete_results` when the query timed out.
 */
import type { Hono } from "hono";
import type { GithubFake } from "./github-fake.js";
import { searchItemPayload } from "./issues-payloads.js";
import type { FakeIssue, FakeIssueRepository, IssueStore } from "./issues-store.js";
import { pageOf, validationFailed } from "./pulls-answers.js";

const DOCUMENTATION = "https://docs.github.com/v3/search/";

/** What GitHub says when a `repo:` or `user:` qualifier names something this credential cannot see. */
const CANNOT_SEARCH =
  "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.";

type Hit = { repository: FakeIssueRepository; issue: FakeIssue };

export function issueSearchRoute(app: Hono, fake: GithubFake, store: IssueStore) {
  app.get("/search/issues", (c) => {
    const q = c.req.query("q")?.trim();
    if (!q) {
      return validationFailed(c, fake, DOCUMENTATION, [{ resource: "Search", field: "q", code: "missing" }]);
    }
    const terms = q.match(/-?[\w-]+:"[^"]*"|"[^"]*"|\S+/g) ?? [];
    const filters: ((hit: Hit) => boolean)[] = [];
    let repositories = store.repositories;
    for (const term of terms) {
      const [, negated, qualifier, raw] = /^(-?)(?:([\w-]+):)?(.*)$/.exec(term) ?? [];
      const value = (raw ?? "").replace(/^"|"$/g, "");
      if (qualifier === "repo") {
        const [owner = "", name = ""] = value.split("/");
        const repository = store.find(owner, name);
        if (!repository) {
          return validationFailed(c, fake, DOCUMENTATION, [
            { message: CANNOT_SEARCH, resource: "Search", field: "q", code: "invalid" },
          ]);
        }
        repositories = [repository];
        continue;
      }
      const test = qualifierTest(qualifier, value);
      filters.push(negated ? (hit) => !test(hit) : test);
    }
    const hits = repositories
      .flatMap((repository) => repository.issues.map((issue) => ({ repository, issue })))
      .filter((hit) => filters.every((test) => test(hit)))
      .sort((a, b) => b.issue.updatedAt.localeCompare(a.issue.updatedAt));
    const page = pageOf(c, hits);
    // GitHub's own example puts search_type before items; a client must not take the first array key.
    return fake.json(
      c,
      200,
      {
        total_count: hits.length,
        incomplete_results: store.searchTimesOut,
        search_type: "lexical",
        items: page.items.map((hit) => searchItemPayload(hit.repository, hit.issue)),
      },
      {
        ...page.headers,
        "x-ratelimit-limit": "30",
        "x-ratelimit-remaining": "29",
        "x-ratelimit-resource": "search",
      },
    );
  });
}

function qualifierTest(qualifier: string | undefined, value: string): (hit: Hit) => boolean {
  const lower = value.toLowerCase();
  switch (qualifier) {
    case "is":
    case "type":
      if (lower === "issue") return ({ issue }) => !issue.isPullRequest;
      if (lower === "pr" || lower === "pull-request") return ({ issue }) => issue.isPullRequest;
      return ({ issue }) => issue.state === lower;
    case "state":
      return ({ issue }) => issue.state === lower;
    case "label":
      return ({ issue }) => issue.labels.some((label) => label.toLowerCase() === lower);
    case "author":
      return ({ issue }) => issue.author.toLowerCase() === lower;
    case "assignee":
      return ({ issue }) => issue.assignees.some((login) => login.toLowerCase() === lower);
    default: {
      const word = (qualifier ? `${qualifier}:${value}` : value).toLowerCase();
      return ({ issue }) => `${issue.title}\n${issue.body ?? ""}`.toLowerCase().includes(word);
    }
  }
}
