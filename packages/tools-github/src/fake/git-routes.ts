/**
 * @module The fake's commits, branches, tags and refs, over a FakeRepository. Behaviour reproduced:
 * - docs.github.com/en/rest/commits/commits#list-commits: `sha`, `path`, `author`, `since`, `until`
 *   filters, newest first, paged with `Link`.
 * - …#get-a-commit: stats and files with their patch (a binary file has none); at most 300 files a page,
 *   the rest behind a `Link` header; an unknown ref is a 422 "No commit found for SHA: …".
 * - docs.github.com/en/rest/branches/branches#list-branches (`protected` filter) and
 *   docs.github.com/en/rest/repos/repos#list-repository-tags, paged.
 * - docs.github.com/en/rest/git/refs#get-a-reference (404 for an unknown ref) and …#create-a-reference:
 *   201 with the ref; a taken name is a 422 "Reference already exists" and an unknown sha a 422 "Object
 *   does not exist" (both as GitHub sends them: renovatebot/renovate#20281, octokit/octokit.js#562).
 */
import type { Context } from "hono";
import { errorBody, exampleItem, pagedAnswer } from "./git-answers.js";
import type { FakeCommit, FakeRepository } from "./git-repository.js";
import type { FakeRoutes, GithubFake } from "./github-fake.js";
import { example } from "./payloads.js";

/** The protection a protected branch shows in a list: status checks required, as in GitHub's example. */
const BRANCH_PROTECTION = {
  enabled: true,
  required_status_checks: {
    enforcement_level: "non_admins",
    contexts: ["ci-test"],
    checks: [{ context: "ci-test", app_id: null }],
  },
};

/** GitHub lists at most this many files of a commit per page. */
const FILES_PER_PAGE = 300;

export function gitRoutes(repository: FakeRepository): FakeRoutes {
  return (app, fake) => {
    const api = `https://api.github.com/repos/${repository.owner}/${repository.name}`;
    const unknownRepository = (c: Context, docs: string) =>
      repository.is(c.req.param("owner") ?? "", c.req.param("repo") ?? "")
        ? undefined
        : fake.json(c, 404, errorBody(404, "Not Found", docs));

    app.get("/repos/:owner/:repo/commits", (c) => {
      const refused = unknownRepository(c, "commits/commits#list-commits");
      if (refused) return refused;
      const { sha, path, author, since, until } = c.req.query();
      const head = repository.resolve(sha);
      if (!head) {
        return fake.json(
          c,
          404,
          errorBody(404, `No commit found for SHA: ${sha}`, "commits/commits#list-commits"),
        );
      }
      const commits = repository
        .history(head.sha)
        .filter(
          (commit) =>
            (!path ||
              commit.changes.some(
                (each) => each.filename === path || each.filename.startsWith(`${path}/`),
              )) &&
            (!author || commit.author.login === author || commit.author.email === author) &&
            (!since || commit.date >= since) &&
            (!until || commit.date <= until),
        );
      return pagedAnswer(
        c,
        fake,
        commits.map((commit) => commitItem(repository, commit)),
      );
    });

    app.get("/repos/:owner/:repo/commits/:ref", (c) => {
      const refused = unknownRepository(c, "commits/commits#get-a-commit");
      if (refused) return refused;
      const ref = c.req.param("ref");
      const commit = repository.resolve(ref);
      if (!commit) {
        return fake.json(
          c,
          422,
          errorBody(422, `No commit found for SHA: ${ref}`, "commits/commits#get-a-commit"),
        );
      }
      const page = Math.max(1, Number(c.req.query("page") ?? 1) || 1);
      const files = commit.changes.slice((page - 1) * FILES_PER_PAGE, page * FILES_PER_PAGE);
      const more = commit.changes.length > page * FILES_PER_PAGE;
      const next = new URL(`${fake.url}${new URL(c.req.url).pathname}`);
      next.searchParams.set("page", String(page + 1));
      const additions = commit.changes.reduce((sum, each) => sum + each.additions, 0);
      const deletions = commit.changes.reduce((sum, each) => sum + each.deletions, 0);
      return fake.json(
        c,
        200,
        example("commit", {
          ...commitItem(repository, commit),
          stats: { additions, deletions, total: additions + deletions },
          files: files.map((each) => ({
            ...each,
            sha: commit.tree.get(each.filename)?.sha ?? null,
            changes: each.additions + each.deletions,
            blob_url: `https://github.com/${repository.owner}/${repository.name}/blob/${commit.sha}/${each.filename}`,
            raw_url: `https://github.com/${repository.owner}/${repository.name}/raw/${commit.sha}/${each.filename}`,
            contents_url: `${api}/contents/${each.filename}?ref=${commit.sha}`,
          })),
        }),
        more ? { link: `<${next.href}>; rel="next"` } : {},
      );
    });

    app.get("/repos/:owner/:repo/branches", (c) => {
      const refused = unknownRepository(c, "branches/branches#list-branches");
      if (refused) return refused;
      const wanted = c.req.query("protected");
      const branches = [...repository.branches.values()]
        .filter((branch) => wanted === undefined || String(branch.protected) === wanted)
        .sort((a, b) => a.name.localeCompare(b.name));
      return pagedAnswer(
        c,
        fake,
        branches.map((branch) => {
          const { protection: _example, ...item } = exampleItem("short-branch-with-protection-items", {
            name: branch.name,
            commit: { sha: branch.head, url: `${api}/commits/${branch.head}` },
            protected: branch.protected,
            protection_url: `${api}/branches/${branch.name}/protection`,
          });
          // GitHub's own example lacks `checks`, which its schema requires; a protected branch gets a whole one.
          return branch.protected ? { ...item, protection: BRANCH_PROTECTION } : item;
        }),
      );
    });

    app.get("/repos/:owner/:repo/tags", (c) => {
      const refused = unknownRepository(c, "repos/repos#list-repository-tags");
      if (refused) return refused;
      const tags = [...repository.tags.entries()].sort(([a], [b]) => b.localeCompare(a));
      return pagedAnswer(
        c,
        fake,
        tags.map(([name, sha]) =>
          exampleItem("tag-items", {
            name,
            commit: { sha, url: `${api}/commits/${sha}` },
            zipball_url: `${api}/zipball/refs/tags/${name}`,
            tarball_url: `${api}/tarball/refs/tags/${name}`,
          }),
        ),
      );
    });

    app.get("/repos/:owner/:repo/git/ref/:ref{.+}", (c) => {
      const refused = unknownRepository(c, "git/refs#get-a-reference");
      if (refused) return refused;
      const ref = c.req.param("ref");
      const branch = ref.startsWith("heads/")
        ? repository.branches.get(ref.slice("heads/".length))
        : undefined;
      const tag = ref.startsWith("tags/") ? repository.tags.get(ref.slice("tags/".length)) : undefined;
      const sha = branch?.head ?? tag;
      if (sha === undefined)
        return fake.json(c, 404, errorBody(404, "Not Found", "git/refs#get-a-reference"));
      return fake.json(c, 200, refPayload(api, `refs/${ref}`, sha));
    });

    app.post("/repos/:owner/:repo/git/refs", async (c) => {
      const refused = unknownRepository(c, "git/refs#create-a-reference");
      if (refused) return refused;
      const { ref, sha } = (await c.req.json()) as { ref: string; sha: string };
      const name = ref.replace(/^refs\/heads\//, "");
      if (repository.branches.has(name)) return refusal(c, fake, "Reference already exists");
      if (!repository.commits.has(sha)) return refusal(c, fake, "Object does not exist");
      repository.branches.set(name, { name, head: sha, protected: false });
      return fake.json(c, 201, refPayload(api, ref, sha), { location: `${api}/git/${ref}` });
    });
  };
}

function refusal(c: Context, fake: GithubFake, message: string): Response {
  return fake.json(c, 422, errorBody(422, message, "git/refs#create-a-reference"));
}

function refPayload(api: string, ref: string, sha: string) {
  return example("git-ref", {
    ref,
    url: `${api}/git/${ref}`,
    object: { type: "commit", sha, url: `${api}/git/commits/${sha}` },
  });
}

/** A commit as the list endpoint shows it: GitHub's item example with this commit's fields. */
function commitItem(repository: FakeRepository, commit: FakeCommit) {
  const template = exampleItem<{ commit: Record<string, unknown>; author: Record<string, unknown> }>(
    "commit-items",
  );
  const api = `https://api.github.com/repos/${repository.owner}/${repository.name}`;
  const person = { name: commit.author.name, email: commit.author.email, date: commit.date };
  const user = {
    ...template.author,
    login: commit.author.login,
    html_url: `https://github.com/${commit.author.login}`,
  };
  return {
    ...template,
    sha: commit.sha,
    url: `${api}/commits/${commit.sha}`,
    html_url: `https://github.com/${repository.owner}/${repository.name}/commit/${commit.sha}`,
    comments_url: `${api}/commits/${commit.sha}/comments`,
    commit: { ...template.commit, author: person, committer: person, message: commit.message },
    author: user,
    committer: user,
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${api}/commits/${sha}`,
      html_url: `https://github.com/${repository.owner}/${repository.name}/commit/${sha}`,
    })),
  };
}
