/**
 * @module The fake's repository contents and code search, over a FakeRepository. Behaviour reproduced:
 * - docs.github.com/en/rest/repos/contents#get-repository-content: a file as base64 in lines of 60
 *   characters; a directory as an array; a file over 1 MB with `content: ""` and `encoding: "none"`
 *   (octocrab#245, flat-viewer#41 show GitHub's answer); `application/vnd.github.raw+json` answers the
 *   bytes labelled `text/plain; charset=utf-8`, binary files too (octokit/request.js#751); an unknown ref
 *   is a 404 "No commit found for the ref …".
 * - …#create-or-update-file-contents and …#delete-a-file: an existing file without `sha` is a 422
 *   `Invalid request.\n\n"sha" wasn't supplied.`, a stale `sha` a 409 `<path> does not match <sha>`
 *   (measured against GitHub in pome-sh/digital-twins#400), a missing branch a 404; a write is a commit.
 * - docs.github.com/en/rest/search/search#search-code: a query with no repo:, org: or user: qualifier is
 *   a 422 "Must include at least one user, organization, or repository"; `text-match` adds fragments.
 */
import type { Context } from "hono";
import { errorBody, exampleItem, objectId, pagedAnswer } from "./git-answers.js";
import type { FakeCommit, FakeFile, FakeRepository } from "./git-repository.js";
import type { FakeRoutes, GithubFake } from "./github-fake.js";
import { example } from "./payloads.js";

/** GitHub serves a file's content in its JSON answer up to this size; past it, only as raw. */
const INLINE_LIMIT = 1024 * 1024;

const CONTENTS_DOCS = {
  get: "repos/contents#get-repository-content",
  put: "repos/contents#create-or-update-file-contents",
  delete: "repos/contents#delete-a-file",
};

export function contentsRoutes(repository: FakeRepository): FakeRoutes {
  return (app, fake) => {
    const notFound = (c: Context, docs: string, message = "Not Found") =>
      fake.json(c, 404, errorBody(404, message, docs));

    app.get("/repos/:owner/:repo/contents/:path{.+}?", (c) => {
      if (!repository.is(c.req.param("owner"), c.req.param("repo"))) return notFound(c, CONTENTS_DOCS.get);
      const ref = c.req.query("ref");
      const commit = repository.resolve(ref);
      if (!commit) return notFound(c, CONTENTS_DOCS.get, `No commit found for the ref ${ref}`);
      const path = c.req.param("path") ?? "";
      const file = commit.tree.get(path);
      const answer = file
        ? fileAnswer(c, fake, repository, path, file, ref ?? repository.defaultBranch)
        : directoryAnswer(c, fake, repository, commit, path, ref ?? repository.defaultBranch);
      repository.wasRead(path);
      return answer ?? notFound(c, CONTENTS_DOCS.get);
    });

    app.put("/repos/:owner/:repo/contents/:path{.+}", async (c) => {
      if (!repository.is(c.req.param("owner"), c.req.param("repo"))) return notFound(c, CONTENTS_DOCS.put);
      const body = (await c.req.json()) as {
        message: string;
        content: string;
        sha?: string;
        branch?: string;
      };
      const path = c.req.param("path");
      const branch = body.branch ?? repository.defaultBranch;
      const refused = staleShaRefusal(c, fake, repository, branch, path, body.sha, CONTENTS_DOCS.put);
      if (refused) return refused;
      const existed = currentFile(repository, branch, path) !== undefined;
      const commit = repository.commit(branch, body.message, { [path]: Buffer.from(body.content, "base64") });
      const file = commit.tree.get(path) as FakeFile;
      const name = existed
        ? "file-commit-example-for-updating-a-file"
        : "file-commit-example-for-creating-a-file";
      const template = example<{ content: Record<string, unknown> }>(name);
      return fake.json(c, existed ? 200 : 201, {
        content: {
          ...template.content,
          ...contentUrls(repository, path, file.sha, branch),
          name: path.split("/").at(-1),
          path,
          sha: file.sha,
          size: file.bytes.byteLength,
        },
        commit: commitPayload(repository, commit),
      });
    });

    app.delete("/repos/:owner/:repo/contents/:path{.+}", async (c) => {
      if (!repository.is(c.req.param("owner"), c.req.param("repo"))) return notFound(c, CONTENTS_DOCS.delete);
      const body = (await c.req.json()) as { message: string; sha?: string; branch?: string };
      const path = c.req.param("path");
      const branch = body.branch ?? repository.defaultBranch;
      if (currentFile(repository, branch, path) === undefined) return notFound(c, CONTENTS_DOCS.delete);
      const refused = staleShaRefusal(c, fake, repository, branch, path, body.sha, CONTENTS_DOCS.delete);
      if (refused) return refused;
      const commit = repository.commit(branch, body.message, { [path]: null });
      return fake.json(c, 200, { content: null, commit: commitPayload(repository, commit) });
    });

    app.get("/search/code", (c) => {
      const query = c.req.query("q") ?? "";
      if (!/(^|\s)(repo|org|user):\S/.test(query)) {
        return fake.json(c, 422, {
          message: "Validation Failed",
          errors: [
            {
              message: "Must include at least one user, organization, or repository",
              resource: "Search",
              field: "q",
              code: "invalid",
            },
          ],
          documentation_url: "https://docs.github.com/v3/search/",
        });
      }
      const withMatches = /text-match/.test(c.req.header("accept") ?? "");
      const hits = searchFiles(repository, query);
      return pagedAnswer(
        c,
        fake,
        hits.map((hit) => searchItem(repository, hit, withMatches)),
        (items) => ({ total_count: hits.length, incomplete_results: false, items }),
      );
    });
  };
}

/** A write or delete that names no sha, or a stale one, for a file that exists: GitHub's answers to each. */
function staleShaRefusal(
  c: Context,
  fake: GithubFake,
  repository: FakeRepository,
  branch: string,
  path: string,
  sha: string | undefined,
  docs: string,
): Response | undefined {
  if (!repository.branches.has(branch))
    return fake.json(c, 404, errorBody(404, `Branch ${branch} not found`, docs));
  const file = currentFile(repository, branch, path);
  if (!file) return undefined;
  if (sha === undefined) {
    return fake.json(c, 422, errorBody(422, 'Invalid request.\n\n"sha" wasn\'t supplied.', docs));
  }
  if (sha !== file.sha) return fake.json(c, 409, errorBody(409, `${path} does not match ${sha}`, docs));
  return undefined;
}

function currentFile(repository: FakeRepository, branch: string, path: string): FakeFile | undefined {
  return repository.resolve(branch)?.tree.get(path);
}

function contentUrls(repository: FakeRepository, path: string, sha: string, ref: string) {
  const api = `https://api.github.com/repos/${repository.owner}/${repository.name}`;
  const html = `https://github.com/${repository.owner}/${repository.name}/blob/${ref}/${path}`;
  return {
    url: `${api}/contents/${path}?ref=${ref}`,
    git_url: `${api}/git/blobs/${sha}`,
    html_url: html,
    download_url: `https://raw.githubusercontent.com/${repository.owner}/${repository.name}/${ref}/${path}`,
    _links: { self: `${api}/contents/${path}?ref=${ref}`, git: `${api}/git/blobs/${sha}`, html },
  };
}

function fileAnswer(
  c: Context,
  fake: GithubFake,
  repository: FakeRepository,
  path: string,
  file: FakeFile,
  ref: string,
): Response {
  if (/\.raw/.test(c.req.header("accept") ?? "")) {
    return new Response(new Uint8Array(file.bytes), {
      status: 200,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  const inline = file.bytes.byteLength <= INLINE_LIMIT;
  return fake.json(
    c,
    200,
    example("content-file-response-if-content-is-a-file", {
      ...contentUrls(repository, path, file.sha, ref),
      type: "file",
      name: path.split("/").at(-1),
      path,
      sha: file.sha,
      size: file.bytes.byteLength,
      encoding: inline ? "base64" : "none",
      content: inline ? `${(file.bytes.toString("base64").match(/.{1,60}/g) ?? []).join("\n")}\n` : "",
    }),
  );
}

/** The directory's immediate entries, or undefined when nothing lives under `path`. */
function directoryAnswer(
  c: Context,
  fake: GithubFake,
  repository: FakeRepository,
  commit: FakeCommit,
  path: string,
  ref: string,
): Response | undefined {
  const prefix = path === "" ? "" : `${path}/`;
  const entries = new Map<string, Record<string, unknown>>();
  for (const [filePath, file] of commit.tree) {
    if (!filePath.startsWith(prefix)) continue;
    const [name, ...deeper] = filePath.slice(prefix.length).split("/");
    const entryPath = `${prefix}${name}`;
    const isDirectory = deeper.length > 0;
    const sha = isDirectory ? objectId(`${commit.sha}:${entryPath}`) : file.sha;
    entries.set(
      entryPath,
      exampleItem("content-file-response-if-content-is-a-directory", {
        ...contentUrls(repository, entryPath, sha, ref),
        type: isDirectory ? "dir" : "file",
        name,
        path: entryPath,
        sha,
        size: isDirectory ? 0 : file.bytes.byteLength,
        ...(isDirectory ? { download_url: null } : {}),
      }),
    );
  }
  if (entries.size === 0) return undefined;
  return fake.json(
    c,
    200,
    [...entries.values()].sort((a, b) => String(a.name).localeCompare(String(b.name))),
  );
}

function commitPayload(repository: FakeRepository, commit: FakeCommit) {
  const template = example<{ commit: Record<string, unknown> }>("file-commit").commit;
  const person = { name: commit.author.name, email: commit.author.email, date: commit.date };
  const api = `https://api.github.com/repos/${repository.owner}/${repository.name}`;
  return {
    ...template,
    sha: commit.sha,
    url: `${api}/git/commits/${commit.sha}`,
    html_url: `https://github.com/${repository.owner}/${repository.name}/commit/${commit.sha}`,
    author: person,
    committer: person,
    message: commit.message,
    parents: commit.parents.map((sha) => ({ sha, url: `${api}/git/commits/${sha}`, html_url: "" })),
  };
}

interface SearchHit {
  path: string;
  file: FakeFile;
  line: string;
  term: string;
}

/** Files on the default branch containing every word of the query that is not a qualifier. */
function searchFiles(repository: FakeRepository, query: string): SearchHit[] {
  const scope = /(?:^|\s)repo:(\S+)/.exec(query)?.[1];
  if (scope !== undefined && scope.toLowerCase() !== `${repository.owner}/${repository.name}`) return [];
  const terms = query
    .split(/\s+/)
    .filter((word) => word && !/^[a-z]+:/.test(word))
    .map((word) => word.toLowerCase());
  const head = repository.resolve(undefined) as FakeCommit;
  const hits: SearchHit[] = [];
  for (const [path, file] of head.tree) {
    if (file.bytes.includes(0)) continue;
    const text = file.bytes.toString("utf8");
    if (terms.length === 0 || !terms.every((term) => text.toLowerCase().includes(term))) continue;
    const term = terms[0] as string;
    const line = text.split("\n").find((each) => each.toLowerCase().includes(term)) ?? "";
    hits.push({ path, file, line, term });
  }
  return hits;
}

function searchItem(repository: FakeRepository, hit: SearchHit, withMatches: boolean) {
  const template = example<{ items: Record<string, unknown>[] }>("code-search-result-item-paginated")
    .items[0];
  const at = hit.line.toLowerCase().indexOf(hit.term);
  return {
    ...template,
    ...contentUrls(repository, hit.path, hit.file.sha, repository.defaultBranch),
    name: hit.path.split("/").at(-1),
    path: hit.path,
    sha: hit.file.sha,
    repository: {
      ...(template?.repository as Record<string, unknown>),
      name: repository.name,
      full_name: `${repository.owner}/${repository.name}`,
      html_url: `https://github.com/${repository.owner}/${repository.name}`,
    },
    ...(withMatches
      ? {
          text_matches: [
            {
              object_url: `https://api.github.com/repositories/1/contents/${hit.path}`,
              object_type: "FileContent",
              property: "content",
              fragment: hit.line,
              matches: [
                { text: hit.line.slice(at, at + hit.term.length), indices: [at, at + hit.term.length] },
              ],
            },
          ],
        }
      : {}),
  };
}
