import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { releaseRoutes } from "../fake/releases-routes.js";

let gh: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([releaseRoutes]);
});
afterAll(() => gh.close());

const get = (input: Record<string, unknown>, repo = "hello-world") =>
  gh.seam.call(gh.context(), "github_get_release", { owner: "octocat", repo, ...input });
const lastPath = () => gh.fake.requests.at(-1)?.path;

describe("github_get_release", () => {
  it("GETs a release by id with its notes and assets, as untrusted text", async () => {
    const result = await get({ release_id: 1 });
    expect(lastPath()).toBe("/repos/octocat/hello-world/releases/1");
    expect(gh.fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      id: 1,
      tagName: "v1.0.0",
      name: "First",
      body: "The first release.",
      bodyTruncated: false,
      assets: [{ name: "example.zip", size: 1024, downloadCount: 42, contentType: "application/zip" }],
    });
    expect(result.provenance).toEqual({
      source: "https://github.com/octocat/hello-world/releases/tag/v1.0.0",
      trusted: false,
    });
  });

  it("GETs a release by its tag name", async () => {
    const result = await get({ tag: "v1.1.0" });
    expect(lastPath()).toBe("/repos/octocat/hello-world/releases/tags/v1.1.0");
    expect(result.ok && result.data).toMatchObject({ id: 2, tagName: "v1.1.0" });
  });

  it("GETs the latest release: the newest that is neither a draft nor a prerelease", async () => {
    const result = await get({ latest: true });
    expect(lastPath()).toBe("/repos/octocat/hello-world/releases/latest");
    expect(result.ok && result.data).toMatchObject({ id: 2, tagName: "v1.1.0", prerelease: false });
  });

  it("explains that a draft is not found by its tag, and how to read it", async () => {
    const result = await get({ tag: "v2.0.0" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.details?.status).toBe(404);
    expect(result.error.message).toMatch(/no published release tagged v2\.0\.0.*still a draft.*release_id/);
    const byId = await get({ release_id: 4 });
    expect(byId.ok && byId.data).toMatchObject({ tagName: "v2.0.0", draft: true });
  });

  it("explains that a repository with no full release has no latest", async () => {
    const result = await get({ latest: true }, "quiet");
    expect(result.ok || result.error.message).toMatch(
      /no latest release of octocat\/quiet.*no published full release/,
    );
  });

  it("says a release id it cannot find may be out of reach", async () => {
    const result = await get({ release_id: 999 });
    expect(result.ok || result.error.message).toMatch(/release 999 of octocat\/hello-world.*no access/);
  });

  it("refuses anything but exactly one of release_id, tag and latest, before any request", async () => {
    const before = gh.fake.requests.length;
    for (const input of [{}, { release_id: 1, tag: "v1.0.0" }, { latest: false }, { tag: "v1..0" }]) {
      const result = await get(input);
      expect(result.ok || result.error.code, JSON.stringify(input)).toBe("invalid_input");
    }
    expect(gh.fake.requests.length).toBe(before);
  });
});
