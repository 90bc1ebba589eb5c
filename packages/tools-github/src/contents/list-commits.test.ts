import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeRepository, HUBOT } from "../fake/git-repository.js";
import { gitRoutes } from "../fake/git-routes.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
const repository = new FakeRepository({ "README.md": "# Hi\n" });
for (let index = 1; index <= 130; index += 1) {
  const touchesSource = index % 10 === 0;
  repository.commit(
    "main",
    `Change ${index}\n\nWhy change ${index} was made.`,
    touchesSource
      ? { [`src/file-${index}.ts`]: `export const n = ${index};\n` }
      : { "notes.txt": `note ${index}\n` },
    touchesSource ? HUBOT : undefined,
  );
}
beforeAll(async () => {
  gh = await startGithubHarness([gitRoutes(repository)], { maxItems: 200 });
});
afterAll(() => gh.close());

const list = (input: Record<string, unknown>) =>
  gh.seam.call(gh.context(), "github_list_commits", { owner: "octocat", repo: "hello-world", ...input });

describe("github_list_commits", () => {
  it("sends its filters as GitHub's query parameters and shapes each commit", async () => {
    const head = repository.resolve("main");
    const result = await list({
      sha: "main",
      path: "src",
      author: "hubot",
      since: "2024-01-01T00:00:00Z",
      limit: 5,
    });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/commits");
    expect(sent?.query).toEqual({
      sha: "main",
      path: "src",
      author: "hubot",
      since: "2024-01-01T00:00:00Z",
      per_page: "5",
    });
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const data = result.data as { items: { title: string }[]; complete: boolean };
    expect(data.items.map((commit) => commit.title)).toEqual([
      "Change 130",
      "Change 120",
      "Change 110",
      "Change 100",
      "Change 90",
    ]);
    expect(data.items[0]).toEqual({
      sha: head?.sha,
      title: "Change 130",
      author: { name: "Hubot", login: "hubot", date: head?.date },
      url: `https://github.com/octocat/hello-world/commit/${head?.sha}`,
    });
    expect(data.complete).toBe(false);
    expect(result.truncated).toBe(true);
    expect(result.content).toContain(
      [
        "the first 5 commits of octocat/hello-world from main; there are more: narrow the query or raise the limit:",
        `${head?.sha.slice(0, 7)} Change 130 (hubot, ${head?.date})`,
      ].join("\n"),
    );
    expect(result.provenance).toEqual({
      source: "https://github.com/octocat/hello-world/commits/main",
      trusted: false,
    });
  });

  it("follows GitHub's Link pages with the credential, and stops at the page that fills the limit", async () => {
    const before = gh.fake.requests.length;
    const result = await list({ limit: 120 });
    const sent = gh.fake.requests.slice(before);
    expect(sent.map((request) => request.query.page ?? "1")).toEqual(["1", "2"]);
    expect(sent.every((request) => request.headers.authorization === `Bearer ${TEST_TOKEN}`)).toBe(true);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect((result.data as { items: unknown[] }).items).toHaveLength(120);
    expect(result.truncated).toBe(true);
    expect(result.content).toContain(
      "the first 120 commits of octocat/hello-world; there are more: narrow the query or raise the limit:",
    );
  });

  it("says the list is whole when the last page ends it", async () => {
    const result = await list({ limit: 200 });
    expect(result.ok && result.data).toMatchObject({ complete: true });
    expect(result.ok && result.truncated).toBeFalsy();
    expect(result.ok && result.content).toContain("131 commits of octocat/hello-world:");
  });

  it("refuses a malformed date or author before any request", async () => {
    for (const input of [
      { since: "yesterday" },
      { until: "2024-13-01" },
      { author: "two words" },
      { sha: "a..b" },
    ]) {
      const before = gh.fake.requests.length;
      const result = await list(input);
      expect(result.ok || result.error.code).toBe("invalid_input");
      expect(gh.fake.requests.length).toBe(before);
    }
  });

  it("says a 404 may be a repository this credential cannot see", async () => {
    const result = await gh.seam.call(gh.context(), "github_list_commits", {
      owner: "octocat",
      repo: "private-thing",
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/commits of octocat\/private-thing.*no access/);
  });
});
