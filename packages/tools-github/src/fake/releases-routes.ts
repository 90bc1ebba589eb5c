/**
 * @module The fake's release endpoints, reproducing GitHub's REST reference (each route names its page):
 * drafts listed (the harness's credential can push) but never found by tag, the latest being the newest
 * release that is neither a draft nor a prerelease, and the 422s for a tag that already has a release and
 * for a target that is neither a branch nor a commit.
 */
import type { FakeRoutes } from "./github-fake.js";
import { notFound, pageOf, validationFailed } from "./pulls-answers.js";
import { FAKE_VIEWER } from "./pulls-routes.js";
import { type FakeRelease, releasePayload } from "./releases-payloads.js";

const DOCS = {
  list: "https://docs.github.com/rest/releases/releases#list-releases",
  latest: "https://docs.github.com/rest/releases/releases#get-the-latest-release",
  byTag: "https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name",
  create: "https://docs.github.com/rest/releases/releases#create-a-release",
};

interface FakeReleases {
  /** Branches and the commits they point at: what a new tag may be created at. */
  branches: Map<string, string>;
  releases: FakeRelease[];
}

const at = (hour: number) =>
  new Date(Date.UTC(2024, 0, 1) + hour * 3_600_000).toISOString().replace(".000", "");
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

/** octocat/hello-world: published, prerelease, draft; octocat/busy: 105 releases; octocat/quiet: none. */
function seed(): Map<string, FakeReleases> {
  const release = (
    repo: string,
    id: number,
    tag: string,
    fields: Partial<FakeRelease> = {},
  ): FakeRelease => ({
    owner: "octocat",
    repo,
    id,
    tag,
    target: "main",
    name: tag,
    body: `Notes for ${tag}.`,
    draft: false,
    prerelease: false,
    author: FAKE_VIEWER,
    createdAt: at(id),
    publishedAt: at(id),
    hasAsset: fields.draft !== true,
    ...fields,
  });
  const branches = () =>
    new Map([
      ["main", "6dcb09b5b57875f334f61aebed695e2e4193db5e"],
      ["release-2.x", "c3d0be41ecbe669545ee3e94d31ed9a4bc91ee3c"],
    ]);
  return new Map([
    [
      "octocat/hello-world",
      {
        branches: branches(),
        releases: [
          release("hello-world", 1, "v1.0.0", { name: "First", body: "The first release." }),
          release("hello-world", 2, "v1.1.0", { name: "Widgets" }),
          release("hello-world", 3, "v1.2.0-rc.1", { prerelease: true }),
          release("hello-world", 4, "v2.0.0", { draft: true, publishedAt: null, target: "release-2.x" }),
        ],
      },
    ],
    [
      "octocat/busy",
      {
        branches: branches(),
        releases: Array.from({ length: 105 }, (_, index) => release("busy", index + 1, `v0.${index + 1}.0`)),
      },
    ],
    ["octocat/quiet", { branches: branches(), releases: [] }],
  ]);
}

export const releaseRoutes: FakeRoutes = (app, fake) => {
  const repositories = seed();
  const newestFirst = (a: FakeRelease, b: FakeRelease) =>
    b.createdAt.localeCompare(a.createdAt) || b.id - a.id;
  const repositoryOf = (owner: string, repo: string) => repositories.get(`${owner}/${repo}`.toLowerCase());

  // https://docs.github.com/en/rest/releases/releases#list-releases — "Only users with push access will
  // receive listings for draft releases" (the harness's credential has it).
  app.get("/repos/:owner/:repo/releases", (c) => {
    const found = repositoryOf(c.req.param("owner"), c.req.param("repo"));
    if (!found) return notFound(c, fake, DOCS.list);
    const page = pageOf(c, [...found.releases].sort(newestFirst));
    return fake.json(c, 200, page.items.map(releasePayload), page.headers);
  });

  // https://docs.github.com/en/rest/releases/releases#get-the-latest-release — "the most recent
  // non-prerelease, non-draft release, sorted by the created_at attribute".
  app.get("/repos/:owner/:repo/releases/latest", (c) => {
    const latest = repositoryOf(c.req.param("owner"), c.req.param("repo"))
      ?.releases.filter((each) => !each.draft && !each.prerelease)
      .sort(newestFirst)[0];
    return latest ? fake.json(c, 200, releasePayload(latest)) : notFound(c, fake, DOCS.latest);
  });

  // https://docs.github.com/en/rest/releases/releases#get-a-release-by-tag-name — "Get a published
  // release with the specified tag name": a draft is not found by its tag.
  app.get("/repos/:owner/:repo/releases/tags/:tag", (c) => {
    const found = repositoryOf(c.req.param("owner"), c.req.param("repo"))?.releases.find(
      (each) => each.tag === c.req.param("tag") && !each.draft,
    );
    return found ? fake.json(c, 200, releasePayload(found)) : notFound(c, fake, DOCS.byTag);
  });

  // https://docs.github.com/en/rest/releases/releases#get-a-release — the description lists no 404, so a
  // missing id gets the fake's plain GitHub 404.
  app.get("/repos/:owner/:repo/releases/:release_id", (c) => {
    const found = repositoryOf(c.req.param("owner"), c.req.param("repo"))?.releases.find(
      (each) => each.id === Number(c.req.param("release_id")),
    );
    return found ? fake.json(c, 200, releasePayload(found)) : c.notFound();
  });

  // https://docs.github.com/en/rest/releases/releases#create-a-release
  app.post("/repos/:owner/:repo/releases", async (c) => {
    const owner = c.req.param("owner");
    const repo = c.req.param("repo");
    const found = repositoryOf(owner, repo);
    if (!found) return c.notFound();
    const body = (await c.req.json()) as Record<string, unknown>;
    const tag = typeof body.tag_name === "string" ? body.tag_name : "";
    if (tag === "") {
      return validationFailed(c, fake, DOCS.create, [
        { resource: "Release", code: "missing_field", field: "tag_name" },
      ]);
    }
    if (found.releases.some((each) => each.tag === tag)) {
      return validationFailed(c, fake, DOCS.create, [
        { resource: "Release", code: "already_exists", field: "tag_name" },
      ]);
    }
    const target = typeof body.target_commitish === "string" ? body.target_commitish : "main";
    if (!found.branches.has(target) && ![...found.branches.values()].includes(target)) {
      return validationFailed(c, fake, DOCS.create, [
        { resource: "Release", code: "invalid", field: "target_commitish" },
      ]);
    }
    const draft = body.draft === true;
    const created: FakeRelease = {
      owner,
      repo,
      id: 1000 + found.releases.length,
      tag,
      target,
      name: typeof body.name === "string" ? body.name : null,
      body: typeof body.body === "string" ? body.body : null,
      draft,
      prerelease: body.prerelease === true,
      author: FAKE_VIEWER,
      createdAt: now(),
      publishedAt: draft ? null : now(),
      hasAsset: false,
    };
    found.releases.push(created);
    return fake.json(c, 201, releasePayload(created), {
      location: `https://api.github.com/repos/${owner}/${repo}/releases/${created.id}`,
    });
  });
};
