/**
 * @module The fake's pull request endpoints, and the issue search they are found by, reproducing what
 * GitHub's REST reference documents (each route names its page) and the odd answers GitHub gives:
 * mergeability computed in the background (null at first), 405 and 409 on merge, the 422s for a review
 * without a body or of one's own pull request, and search's 422 for a repository it may not see.
 *
 * The credential the harness injects is octocat's: octocat opened pull request 2, so reviewing it is
 * reviewing one's own.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { FakeRoutes } from "./github-fake.js";
import { example } from "./payloads.js";
import { notFound, pageOf, validationFailed } from "./pulls-answers.js";
import {
  type FakePull,
  pullPayload,
  searchedPullPayload,
  simplePullPayload,
  userPayload,
} from "./pulls-payloads.js";

/** The login the harness's token belongs to. */
export const FAKE_VIEWER = "octocat";

const DOCS = {
  list: "https://docs.github.com/rest/pulls/pulls#list-pull-requests",
  get: "https://docs.github.com/rest/pulls/pulls#get-a-pull-request",
  create: "https://docs.github.com/rest/pulls/pulls#create-a-pull-request",
  update: "https://docs.github.com/rest/pulls/pulls#update-a-pull-request",
  merge: "https://docs.github.com/rest/pulls/pulls#merge-a-pull-request",
  review: "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request",
  search: "https://docs.github.com/v3/search",
};

interface FakeRepository {
  owner: string;
  name: string;
  branches: Map<string, string>;
  /** Merge methods the repository's settings allow. */
  mergeMethods: Set<string>;
  pulls: FakePull[];
}

const shaOf = (text: string) => createHash("sha1").update(text).digest("hex");
const at = (hour: number) =>
  new Date(Date.UTC(2024, 4, 1) + hour * 3_600_000).toISOString().replace(".000", "");
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

function pull(
  repository: FakeRepository,
  number: number,
  fields: Omit<Partial<FakePull>, "head"> & { head: string },
) {
  const { head, ...rest } = fields;
  const created = at(number);
  const entry: FakePull = {
    owner: repository.owner,
    repo: repository.name,
    number,
    title: `Pull request ${number}`,
    body: `Changes of pull request ${number}.`,
    author: "hubot",
    state: "open",
    draft: false,
    merged: false,
    head: { owner: repository.owner, ref: head, sha: branch(repository, head) },
    base: { ref: "main", sha: branch(repository, "main") },
    mergeable: true,
    mergeableState: "clean",
    createdAt: created,
    updatedAt: created,
    closedAt: null,
    mergedAt: null,
    mergedBy: null,
    mergeCommitSha: null,
    ...rest,
  };
  repository.pulls.push(entry);
}

function branch(repository: FakeRepository, name: string): string {
  let sha = repository.branches.get(name);
  if (sha === undefined) {
    sha = shaOf(`${repository.owner}/${repository.name}@${name}`);
    repository.branches.set(name, sha);
  }
  return sha;
}

function repository(owner: string, name: string, mergeMethods: string[]): FakeRepository {
  return { owner, name, branches: new Map(), mergeMethods: new Set(mergeMethods), pulls: [] };
}

/** octocat/hello-world (a few pull requests in every state) and octocat/busy (130 open, for paging). */
function seed(): Map<string, FakeRepository> {
  const hello = repository("octocat", "hello-world", ["merge", "squash"]);
  branch(hello, "main");
  // Pushed branches with no pull request yet, and one at main's commit (a pull request from it has no commits).
  for (const name of ["new-feature", "other-feature", "release"]) branch(hello, name);
  hello.branches.set("empty-branch", branch(hello, "main"));
  pull(hello, 1, { head: "feature-widget", title: "Add the widget", body: "The widget, as discussed." });
  pull(hello, 2, { head: "fix-typo", title: "Fix a typo in the README", author: FAKE_VIEWER });
  pull(hello, 3, {
    head: "parser-rework",
    title: "Rework the parser",
    mergeable: false,
    mergeableState: "dirty",
  });
  pull(hello, 4, { head: "old-experiment", title: "An old experiment", state: "closed", closedAt: at(40) });
  pull(hello, 5, { head: "docs-draft", title: "Document the widget", draft: true, mergeableState: "draft" });
  const busy = repository("octocat", "busy", ["merge", "squash", "rebase"]);
  for (let number = 1; number <= 130; number += 1) pull(busy, number, { head: `topic-${number}` });
  return new Map([hello, busy].map((each) => [`${each.owner}/${each.name}`.toLowerCase(), each]));
}

const METHOD_REFUSED: Record<string, string> = {
  merge: "Merge commits are not allowed on this repository.",
  squash: "Squash merges are not allowed on this repository.",
  rebase: "Rebase merges are not allowed on this repository.",
};

export const pullRoutes: FakeRoutes = (app, fake) => {
  const repositories = seed();
  /** Pull requests whose mergeability GitHub is still computing, and what it will find. */
  const computing = new Map<FakePull, { mergeable: boolean; state: string }>();

  const repositoryOf = (c: Context) =>
    repositories.get(`${c.req.param("owner")}/${c.req.param("repo")}`.toLowerCase());
  const pullOf = (c: Context) =>
    repositoryOf(c)?.pulls.find((each) => each.number === Number(c.req.param("pull_number")));
  /** GitHub starts computing mergeability again whenever a pull request is created or edited. */
  const recompute = (entry: FakePull) => {
    computing.set(entry, { mergeable: true, state: entry.draft ? "draft" : "clean" });
    entry.mergeable = null;
    entry.mergeableState = "unknown";
  };

  // https://docs.github.com/en/rest/pulls/pulls#list-pull-requests
  app.get("/repos/:owner/:repo/pulls", (c) => {
    const found = repositoryOf(c);
    if (!found) return c.notFound();
    const state = c.req.query("state") ?? "open";
    const head = c.req.query("head");
    const base = c.req.query("base");
    const sort = c.req.query("sort") ?? "created";
    const direction = c.req.query("direction") ?? (sort === "created" ? "desc" : "asc");
    const key = sort === "updated" ? "updatedAt" : "createdAt";
    const chosen = found.pulls
      .filter((each) => state === "all" || each.state === state)
      .filter((each) => head === undefined || `${each.head.owner}:${each.head.ref}` === head)
      .filter((each) => base === undefined || each.base.ref === base)
      .sort((a, b) => (direction === "asc" ? 1 : -1) * (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0));
    const page = pageOf(c, chosen);
    return fake.json(c, 200, page.items.map(simplePullPayload), page.headers);
  });

  // https://docs.github.com/en/rest/pulls/pulls#get-a-pull-request — "If the value is null, then GitHub
  // has started a background job to compute the mergeability. After giving the job time to complete,
  // resubmit the request."
  app.get("/repos/:owner/:repo/pulls/:pull_number", (c) => {
    const found = pullOf(c);
    if (!found) return notFound(c, fake, DOCS.get);
    const answer = fake.json(c, 200, pullPayload(found));
    const result = computing.get(found);
    if (result) {
      computing.delete(found);
      found.mergeable = result.mergeable;
      found.mergeableState = result.state;
    }
    return answer;
  });

  // https://docs.github.com/en/rest/pulls/pulls#create-a-pull-request
  app.post("/repos/:owner/:repo/pulls", async (c) => {
    const found = repositoryOf(c);
    if (!found) return c.notFound();
    const body = (await c.req.json()) as Record<string, unknown>;
    const errors = createErrors(found, body);
    if (errors.length > 0) return validationFailed(c, fake, DOCS.create, errors);
    const headRef = String(body.head).split(":").at(-1) as string;
    const number = Math.max(0, ...found.pulls.map((each) => each.number)) + 1;
    pull(found, number, {
      head: headRef,
      title: String(body.title),
      body: typeof body.body === "string" ? body.body : null,
      author: FAKE_VIEWER,
      draft: body.draft === true,
      base: { ref: String(body.base), sha: branch(found, String(body.base)) },
      createdAt: now(),
      updatedAt: now(),
    });
    const created = found.pulls.at(-1) as FakePull;
    recompute(created);
    return fake.json(c, 201, pullPayload(created), {
      location: `https://api.github.com/repos/${found.owner}/${found.name}/pulls/${number}`,
    });
  });

  // https://docs.github.com/en/rest/pulls/pulls#update-a-pull-request
  app.patch("/repos/:owner/:repo/pulls/:pull_number", async (c) => {
    const found = pullOf(c);
    const repositoryFound = repositoryOf(c);
    if (!found || !repositoryFound) return c.notFound();
    const body = (await c.req.json()) as Record<string, unknown>;
    if (typeof body.base === "string" && !repositoryFound.branches.has(body.base)) {
      return validationFailed(c, fake, DOCS.update, [
        { resource: "PullRequest", field: "base", code: "invalid" },
      ]);
    }
    if (typeof body.title === "string") found.title = body.title;
    if (typeof body.body === "string") found.body = body.body;
    if (body.state === "closed" && found.state === "open") found.closedAt = now();
    if (body.state === "open" && found.state === "closed" && !found.merged) found.closedAt = null;
    if ((body.state === "open" || body.state === "closed") && !found.merged) found.state = body.state;
    if (typeof body.base === "string" && body.base !== found.base.ref) {
      found.base = { ref: body.base, sha: branch(repositoryFound, body.base) };
      recompute(found);
    }
    found.updatedAt = now();
    return fake.json(c, 200, pullPayload(found));
  });

  // https://docs.github.com/en/rest/pulls/reviews#create-a-review-for-a-pull-request — body "Required when
  // using REQUEST_CHANGES or COMMENT"; GitHub's 422s below are the sentences it sends, as captured from
  // the live API (hubtty/hubtty#33 and #67, and a 2026 capture of a REQUEST_CHANGES on one's own pull request).
  app.post("/repos/:owner/:repo/pulls/:pull_number/reviews", async (c) => {
    const found = pullOf(c);
    if (!found) return c.notFound();
    const body = (await c.req.json()) as { event?: string; body?: string; comments?: unknown[] };
    const refuse = (sentence: string) =>
      validationFailed(c, fake, DOCS.review, [sentence], "Unprocessable Entity");
    if (found.author === FAKE_VIEWER && body.event === "APPROVE") {
      return refuse("Can not approve your own pull request");
    }
    if (found.author === FAKE_VIEWER && body.event === "REQUEST_CHANGES") {
      return refuse("Review Can not request changes on your own pull request");
    }
    const blank = (body.body ?? "").trim() === "" && (body.comments ?? []).length === 0;
    if ((body.event === "REQUEST_CHANGES" || body.event === "COMMENT") && blank) {
      return refuse("You need to leave a comment indicating the requested changes.");
    }
    const id = 80 + found.number;
    const state =
      { APPROVE: "APPROVED", REQUEST_CHANGES: "CHANGES_REQUESTED", COMMENT: "COMMENTED" }[body.event ?? ""] ??
      "PENDING";
    const html = `https://github.com/${found.owner}/${found.repo}/pull/${found.number}`;
    const api = `https://api.github.com/repos/${found.owner}/${found.repo}/pulls/${found.number}`;
    return fake.json(
      c,
      200,
      example("pull-request-review", {
        id,
        user: userPayload(FAKE_VIEWER),
        body: body.body ?? "",
        state,
        html_url: `${html}#pullrequestreview-${id}`,
        pull_request_url: api,
        _links: { html: { href: `${html}#pullrequestreview-${id}` }, pull_request: { href: api } },
        commit_id: found.head.sha,
        ...(state === "PENDING" ? {} : { submitted_at: now() }),
      }),
    );
  });

  // https://docs.github.com/en/rest/pulls/pulls#merge-a-pull-request — 405 "if merge cannot be
  // performed", 409 "if sha was provided and pull request head did not match".
  app.put("/repos/:owner/:repo/pulls/:pull_number/merge", async (c) => {
    const found = pullOf(c);
    const repositoryFound = repositoryOf(c);
    if (!found || !repositoryFound) return notFound(c, fake, DOCS.merge);
    const text = await c.req.text();
    const body = (text ? JSON.parse(text) : {}) as { sha?: string; merge_method?: string };
    const method = body.merge_method ?? "merge";
    const refuse = (status: 405 | 409, message: string) =>
      fake.json(c, status, { message, documentation_url: DOCS.merge, status: String(status) });
    if (found.state === "closed") return refuse(405, "Pull Request is not mergeable");
    // Not in the reference; the sentence users report from merging a draft (e.g. on-par's merge tests).
    if (found.draft) return refuse(405, "Pull Request is still a draft");
    if (body.sha !== undefined && body.sha !== found.head.sha) {
      return refuse(409, "Head branch was modified. Review and try the merge again.");
    }
    if (found.mergeable === false) return refuse(405, "Pull Request is not mergeable");
    if (!repositoryFound.mergeMethods.has(method)) return refuse(405, METHOD_REFUSED[method] ?? "");
    const sha = shaOf(`${found.head.sha}+${found.base.sha}:${method}`);
    Object.assign(found, {
      state: "closed",
      merged: true,
      mergeable: null,
      mergeableState: "unknown",
      mergedAt: now(),
      closedAt: now(),
      mergedBy: FAKE_VIEWER,
      mergeCommitSha: sha,
    });
    repositoryFound.branches.set(found.base.ref, sha);
    return fake.json(c, 200, { sha, merged: true, message: "Pull Request successfully merged" });
  });

  // https://docs.github.com/en/rest/search/search#search-issues-and-pull-requests — the fake holds only
  // pull requests; an unknown repo: qualifier is GitHub's 422, not a 404.
  app.get("/search/issues", (c) => {
    const q = (c.req.query("q") ?? "").trim();
    if (q === "") {
      return validationFailed(c, fake, DOCS.search, [{ resource: "Search", field: "q", code: "missing" }]);
    }
    const filter = searchFilter(q);
    const unseen = filter.repositories.filter((name) => !repositories.has(name));
    if (unseen.length > 0) {
      return validationFailed(c, fake, DOCS.search, [
        {
          message:
            "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.",
          resource: "Search",
          field: "q",
          code: "invalid",
        },
      ]);
    }
    const order = c.req.query("order") === "asc" ? 1 : -1;
    const key = c.req.query("sort") === "updated" ? "updatedAt" : "createdAt";
    const matched = [...repositories.values()]
      .flatMap((each) => each.pulls)
      .filter(filter.matches)
      .sort((a, b) => order * (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : b.number - a.number));
    const page = pageOf(c, matched);
    return fake.json(
      c,
      200,
      {
        total_count: matched.length,
        incomplete_results: false,
        // GitHub sends search_type before items: Octokit's paginate takes the first key left as the list.
        search_type: "lexical",
        items: page.items.map(searchedPullPayload),
      },
      page.headers,
    );
  });
};

function createErrors(found: FakeRepository, body: Record<string, unknown>): Record<string, string>[] {
  const errors: Record<string, string>[] = [];
  if (typeof body.title !== "string" || body.title === "") {
    errors.push({ resource: "PullRequest", code: "missing_field", field: "title" });
  }
  const base = String(body.base ?? "");
  const [headOwner, headRef] = String(body.head ?? "").includes(":")
    ? String(body.head).split(":")
    : [found.owner, String(body.head ?? "")];
  if (!found.branches.has(base)) errors.push({ resource: "PullRequest", field: "base", code: "invalid" });
  if (headOwner !== found.owner || !found.branches.has(headRef ?? "")) {
    errors.push({ resource: "PullRequest", field: "head", code: "invalid" });
  }
  if (errors.length > 0) return errors;
  const existing = found.pulls.find(
    (each) => each.state === "open" && each.head.ref === headRef && each.base.ref === base,
  );
  if (existing) {
    return [
      {
        resource: "PullRequest",
        code: "custom",
        message: `A pull request already exists for ${found.owner}:${headRef}.`,
      },
    ];
  }
  if (found.branches.get(headRef ?? "") === found.branches.get(base)) {
    return [
      { resource: "PullRequest", code: "custom", message: `No commits between ${base} and ${headRef}` },
    ];
  }
  return [];
}

/** The qualifiers of GitHub's issue search the fake understands, and the words to find in title or body. */
function searchFilter(q: string) {
  const repositories: string[] = [];
  const tests: ((pull: FakePull) => boolean)[] = [];
  for (const token of q.split(/\s+/)) {
    const [qualifier, value = ""] = token.includes(":") ? token.split(/:(.*)/s) : ["", token];
    switch (`${qualifier}:${qualifier === "is" || qualifier === "type" ? value : ""}`) {
      case "is:pr":
      case "type:pr":
        break;
      case "is:issue":
      case "type:issue":
        tests.push(() => false);
        break;
      case "is:open":
      case "is:closed":
        tests.push((pull) => pull.state === value);
        break;
      case "is:merged":
        tests.push((pull) => pull.merged);
        break;
      case "is:draft":
        tests.push((pull) => pull.draft);
        break;
      case "repo:":
        repositories.push(value.toLowerCase());
        tests.push((pull) => `${pull.owner}/${pull.repo}`.toLowerCase() === value.toLowerCase());
        break;
      case "author:":
        tests.push((pull) => pull.author === value);
        break;
      case "state:":
        tests.push((pull) => pull.state === value);
        break;
      default: {
        const word = token.toLowerCase();
        tests.push((pull) => `${pull.title} ${pull.body ?? ""}`.toLowerCase().includes(word));
      }
    }
  }
  return { repositories, matches: (pull: FakePull) => tests.every((test) => test(pull)) };
}
