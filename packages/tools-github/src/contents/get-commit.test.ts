import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeRepository } from "../fake/git-repository.js";
import { gitRoutes } from "../fake/git-routes.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const repository = new FakeRepository({ "README.md": "# Hi\n" });
const small = repository.commit("main", "Fix the greeting\n\nIt said hullo.", {
  "README.md": "# Hello\n",
  "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]),
});
repository.branches.set("feature/login", { name: "feature/login", head: small.sha, protected: false });
const big = repository.commit("main", "Rewrite everything", {
  "huge.txt": Array.from({ length: 2_000 }, (_, index) => `row ${index}`).join("\n"),
  ...Object.fromEntries(Array.from({ length: 301 }, (_, index) => [`gen/file-${index}.txt`, `${index}\n`])),
});
beforeAll(async () => {
  gh = await startGithubHarness([gitRoutes(repository)]);
});
afterAll(() => gh.close());

const get = (ref: string) =>
  gh.seam.call(gh.context(), "github_get_commit", { owner: "octocat", repo: "hello-world", ref });

describe("github_get_commit", () => {
  it("returns the message, people, parents, stats and each file with its patch", async () => {
    const result = await get(small.sha);
    const sent = gh.fake.requests.at(-1);
    expect(sent?.path).toBe(`/repos/octocat/hello-world/commits/${small.sha}`);
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated ?? false).toBe(false);
    expect(result.data).toEqual({
      sha: small.sha,
      message: "Fix the greeting\n\nIt said hullo.",
      messageTruncated: false,
      author: { name: "Monalisa Octocat", login: "octocat", date: small.date },
      committer: { name: "Monalisa Octocat", login: "octocat", date: small.date },
      parents: small.parents,
      stats: { additions: 1, deletions: 1, total: 2 },
      files: [
        {
          filename: "README.md",
          status: "modified",
          additions: 1,
          deletions: 1,
          patch: "@@ -1,1 +1,1 @@\n-# Hi\n+# Hello",
          patchTruncated: false,
        },
        {
          filename: "logo.png",
          status: "added",
          additions: 0,
          deletions: 0,
          patch: null,
          patchTruncated: false,
        },
      ],
      filesTruncated: false,
      url: `https://github.com/octocat/hello-world/commit/${small.sha}`,
    });
    expect(result.provenance).toEqual({
      source: `https://github.com/octocat/hello-world/commit/${small.sha}`,
      trusted: false,
    });
  });

  it("reads a branch's head, sending the name as one path segment", async () => {
    const result = await get("feature/login");
    expect(gh.fake.requests.at(-1)?.path).toBe("/repos/octocat/hello-world/commits/feature%2Flogin");
    expect(result.ok && (result.data as { sha: string }).sha).toBe(small.sha);
  });

  it("caps patches and says when a commit has more files than it describes", async () => {
    const result = await get(big.sha);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const data = result.data as {
      files: { filename: string; patch: string | null; patchTruncated: boolean }[];
      filesTruncated: boolean;
    };
    expect(result.truncated).toBe(true);
    expect(data.filesTruncated).toBe(true);
    expect(data.files).toHaveLength(100);
    const huge = data.files.find((file) => file.filename === "huge.txt");
    expect(huge?.patchTruncated).toBe(true);
    expect(huge?.patch?.length).toBe(3_000);
    const patched = data.files.reduce((sum, file) => sum + (file.patch?.length ?? 0), 0);
    expect(patched).toBeLessThanOrEqual(12_000);
    expect(Buffer.byteLength(result.content)).toBeLessThan(64 * 1024);
  });

  it("passes on GitHub's 422 for a commit that does not exist", async () => {
    const result = await get("0000000000000000000000000000000000000000");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("invalid_input");
      expect(result.error.message).toMatch(/No commit found for SHA: 0{40}/);
    }
  });
});
