import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentsRoutes } from "../fake/contents-routes.js";
import { FakeRepository } from "../fake/git-repository.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const repository = new FakeRepository({
  "README.md": "# Hi\n",
  "src/index.ts": "export {};\n",
  "src/lib/a.ts": "a\n",
  "src/lib/b.ts": "b\n",
  "src/z.ts": "z\n",
});
beforeAll(async () => {
  gh = await startGithubHarness([contentsRoutes(repository)], { maxItems: 2 });
});
afterAll(() => gh.close());

const list = (input: Record<string, unknown>) =>
  gh.seam.call(gh.context(), "github_list_directory", { owner: "octocat", repo: "hello-world", ...input });

describe("github_list_directory", () => {
  it("lists the root when no path is given", async () => {
    const result = await list({});
    const sent = gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/contents");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok && result.data).toEqual({
      items: [
        { name: "README.md", path: "README.md", type: "file", size: 5 },
        { name: "src", path: "src", type: "dir", size: 0 },
      ],
      complete: true,
    });
    expect(result.ok && result.content).toContain(
      "2 entries of the root of octocat/hello-world:\nREADME.md (5 bytes)\nsrc (dir)",
    );
  });

  it("lists one level of a directory at a ref, cut to the deployment's maxItems and saying so", async () => {
    const result = await list({ path: "src", ref: "main" });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/contents/src");
    expect(sent?.query).toEqual({ ref: "main" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBe(true);
    expect(result.data).toMatchObject({
      items: [
        { name: "index.ts", type: "file" },
        { name: "lib", type: "dir" },
      ],
      complete: false,
    });
    expect(result.content).toContain(
      "the first 2 entries of src of octocat/hello-world at main; there are more: narrow the query or raise the limit:",
    );
    expect(result.provenance).toEqual({
      source: "https://github.com/octocat/hello-world/tree/main/src",
      trusted: false,
    });
  });

  it("says a file is a file, and names the tool that reads it", async () => {
    const result = await list({ path: "README.md" });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatchObject({
        code: "invalid_input",
        message: expect.stringMatching(/github_get_file/),
      });
  });

  it("refuses a trailing slash or an escape before any request", async () => {
    for (const path of ["src/", "../", "src/../.."]) {
      const before = gh.fake.requests.length;
      const result = await list({ path });
      expect(result.ok || result.error.code).toBe("invalid_input");
      expect(gh.fake.requests.length).toBe(before);
    }
  });
});
