import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentsRoutes } from "../fake/contents-routes.js";
import { FakeRepository, HUBOT } from "../fake/git-repository.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { MAX_WRITE_BYTES } from "./write-file.js";

let gh: GithubHarness;
const repository = new FakeRepository();
beforeAll(async () => {
  gh = await startGithubHarness([contentsRoutes(repository)]);
});
afterAll(() => gh.close());

const write = (input: Record<string, unknown>) =>
  gh.callApproved("github_write_file", {
    owner: "octocat",
    repo: "hello-world",
    message: "Write it",
    ...input,
  });
const textAt = (branch: string, path: string) =>
  repository.resolve(branch)?.tree.get(path)?.bytes.toString("utf8");
const sentSince = (before: number) => gh.fake.requests.slice(before);

describe("github_write_file", () => {
  it("waits for approval before it sends anything", async () => {
    const before = gh.fake.requests.length;
    const parked = await gh.seam.call(gh.context(), "github_write_file", {
      owner: "octocat",
      repo: "hello-world",
      path: "NEW.md",
      content: "new",
      message: "Add",
    });
    expect(parked.ok).toBe(false);
    if (!parked.ok) expect(parked.error.code).toBe("approval_required");
    expect(gh.fake.requests.length).toBe(before);
  });

  it("creates a missing file: the lookup finds nothing, so the PUT carries no sha", async () => {
    const before = gh.fake.requests.length;
    const result = await write({ path: "docs/new.md", content: "# New\nhéllo\n", message: "Add docs" });
    const [lookup, put] = sentSince(before);
    expect(lookup).toMatchObject({ method: "GET", path: "/repos/octocat/hello-world/contents/docs/new.md" });
    expect(put?.method).toBe("PUT");
    expect(put?.path).toBe("/repos/octocat/hello-world/contents/docs/new.md");
    expect(put?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(put?.body).toEqual({
      message: "Add docs",
      content: Buffer.from("# New\nhéllo\n").toString("base64"),
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const head = repository.resolve("main");
    expect(result.data).toEqual({
      path: "docs/new.md",
      created: true,
      branch: null,
      fileSha: head?.tree.get("docs/new.md")?.sha,
      commit: { sha: head?.sha, url: `https://github.com/octocat/hello-world/commit/${head?.sha}` },
    });
    expect(textAt("main", "docs/new.md")).toBe("# New\nhéllo\n");
  });

  it("replaces an existing file with the sha it looked up, and the file's sha changes", async () => {
    const old = repository.resolve("main")?.tree.get("README.md")?.sha;
    const before = gh.fake.requests.length;
    const result = await write({ path: "README.md", content: "# Renamed\n" });
    const put = sentSince(before).find((request) => request.method === "PUT");
    expect(put?.body).toMatchObject({ sha: old });
    expect(result.ok && result.data).toMatchObject({ created: false });
    const now = repository.resolve("main")?.tree.get("README.md")?.sha;
    expect(now).not.toBe(old);
    expect(result.ok && (result.data as { fileSha: string }).fileSha).toBe(now);
  });

  it("writes to the branch it is given, looking the file up on that branch", async () => {
    repository.branches.set("docs", {
      name: "docs",
      head: repository.resolve("main")?.sha ?? "",
      protected: false,
    });
    const before = gh.fake.requests.length;
    const result = await write({ path: "README.md", content: "# On docs\n", branch: "docs" });
    const [lookup, put] = sentSince(before);
    expect(lookup?.query).toEqual({ ref: "docs" });
    expect(put?.body).toMatchObject({ branch: "docs" });
    expect(result.ok).toBe(true);
    expect(textAt("docs", "README.md")).toBe("# On docs\n");
    expect(textAt("main", "README.md")).toBe("# Renamed\n");
  });

  it("reports a file changed between the lookup and the write as a conflict to retry, and writes nothing", async () => {
    repository.afterNextRead("src/index.ts", () =>
      repository.commit("main", "Someone else's change", { "src/index.ts": "theirs\n" }, HUBOT),
    );
    const result = await write({ path: "src/index.ts", content: "mine\n" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({ code: "upstream_error", retryable: true });
      expect(result.error.message).toMatch(
        /changed between this tool's lookup and its write.*github_write_file again/,
      );
      expect(result.error.details).toMatchObject({ status: 409, conflict: true });
    }
    expect(textAt("main", "src/index.ts")).toBe("theirs\n");
  });

  it("reports a file created between the lookup and the write as the same conflict (GitHub's 422)", async () => {
    repository.afterNextRead("race.txt", () =>
      repository.commit("main", "Got there first", { "race.txt": "first\n" }),
    );
    const result = await write({ path: "race.txt", content: "second\n" });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatchObject({ retryable: true, details: { status: 422, conflict: true } });
    expect(textAt("main", "race.txt")).toBe("first\n");
  });

  it("refuses to write over a directory, without a PUT", async () => {
    const before = gh.fake.requests.length;
    const result = await write({ path: "src", content: "x" });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatchObject({
        code: "invalid_input",
        message: expect.stringMatching(/directory/),
      });
    expect(sentSince(before).some((request) => request.method === "PUT")).toBe(false);
  });

  it("passes on GitHub's 404 for a branch that does not exist", async () => {
    const result = await write({ path: "README.md", content: "x", branch: "no-such-branch" });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error.message).toMatch(/README\.md in octocat\/hello-world on no-such-branch/);
  });

  it("refuses content over the cap and a hostile path before any request", async () => {
    for (const input of [
      { path: "big.txt", content: "x".repeat(MAX_WRITE_BYTES + 1) },
      { path: "../outside", content: "x" },
      { path: "README.md", content: "x", message: "" },
      { path: "README.md", content: "x", branch: "bad..branch" },
    ]) {
      const before = gh.fake.requests.length;
      const result = await gh.seam.call(gh.context(), "github_write_file", {
        owner: "octocat",
        repo: "hello-world",
        message: "m",
        ...input,
      });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe("invalid_input");
      expect(gh.fake.requests.length).toBe(before);
    }
  });
});
