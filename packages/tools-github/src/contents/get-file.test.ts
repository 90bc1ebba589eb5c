import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentsRoutes } from "../fake/contents-routes.js";
import { FakeRepository, SEED_FILES } from "../fake/git-repository.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { RAW_FILE_CAP } from "./get-file.js";

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);
const LONG = Array.from({ length: 3_000 }, (_, index) => `line ${index + 1} of the long file`).join("\n");
const MEGABYTES = (count: number, fill: string) =>
  fill.repeat(Math.ceil((count * 1024 * 1024) / fill.length));

let gh: GithubHarness;
const repository = new FakeRepository({
  ...SEED_FILES,
  "docs/my notes.md": "notes\n",
  "docs/long.txt": LONG,
  "assets/logo.png": PNG,
  "data/big.txt": MEGABYTES(1.5, "0123456789abcdef\n"),
  "data/big.bin": Buffer.concat([Buffer.alloc(1_200_000, 0x41), Buffer.from([0, 1, 2])]),
  "data/huge.txt": "x".repeat(RAW_FILE_CAP + 1),
});
beforeAll(async () => {
  gh = await startGithubHarness([contentsRoutes(repository)]);
});
afterAll(() => gh.close());

const read = (input: Record<string, unknown>) =>
  gh.seam.call(gh.context(), "github_get_file", { owner: "octocat", repo: "hello-world", ...input });

describe("github_get_file", () => {
  it("GETs the contents API with the credential egress injected and returns the decoded text", async () => {
    const result = await read({ path: "src/index.ts" });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.method).toBe("GET");
    expect(sent?.path).toBe("/repos/octocat/hello-world/contents/src/index.ts");
    expect(sent?.query).toEqual({});
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const file = repository.resolve("main")?.tree.get("src/index.ts");
    expect(result.data).toMatchObject({
      path: "src/index.ts",
      ref: null,
      sha: file?.sha,
      binary: false,
      content: SEED_FILES["src/index.ts"],
      startLine: 1,
      endLine: 1,
      totalLines: 1,
      truncated: false,
      nextStartLine: null,
    });
    expect(result.content).toContain('export const greeting = "hello";');
    expect(result.provenance).toEqual({
      source: "https://github.com/octocat/hello-world/blob/main/src/index.ts",
      trusted: false,
    });
  });

  it("reads at a ref and sends a path with spaces as encoded segments", async () => {
    repository.branches.set("feature", {
      name: "feature",
      head: repository.resolve("main")?.sha ?? "",
      protected: false,
    });
    repository.commit("feature", "Change notes", { "docs/my notes.md": "changed notes\n" });
    const result = await read({ path: "docs/my notes.md", ref: "feature" });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/contents/docs/my%20notes.md");
    expect(sent?.query).toEqual({ ref: "feature" });
    expect(result.ok && result.data).toMatchObject({ content: "changed notes\n", ref: "feature" });
  });

  it("reads a long file in windows of whole lines and says where the next one starts", async () => {
    const first = await read({ path: "docs/long.txt" });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const window = first.data as {
      content: string;
      endLine: number;
      nextStartLine: number;
      totalLines: number;
    };
    expect(first.truncated).toBe(true);
    expect(window.totalLines).toBe(3_000);
    expect(window.nextStartLine).toBe(window.endLine + 1);
    expect(Buffer.byteLength(window.content)).toBeLessThanOrEqual(20_000);
    expect(window.content.endsWith(`line ${window.endLine} of the long file\n`)).toBe(true);
    expect(first.content).toContain(`call again with start_line ${window.nextStartLine}`);

    const second = await read({ path: "docs/long.txt", start_line: window.nextStartLine });
    expect(
      second.ok && (second.data as { content: string }).content.startsWith(`line ${window.nextStartLine} of`),
    ).toBe(true);

    const past = await read({ path: "docs/long.txt", start_line: 3_001 });
    expect(past.ok).toBe(false);
    if (!past.ok)
      expect(past.error).toMatchObject({
        code: "invalid_input",
        message: expect.stringMatching(/3000 lines/),
      });
  });

  it("says a directory is one, and names the tool that lists it", async () => {
    const result = await read({ path: "docs" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("invalid_input");
      expect(result.error.message).toMatch(/docs .* is a directory.*github_list_directory/);
    }
  });

  it("reports a binary file with its size and never dumps its bytes", async () => {
    const result = await read({ path: "assets/logo.png" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({ binary: true, content: null, size: PNG.byteLength });
    expect(result.content).not.toContain("PNG");
  });

  it("fetches a file over 1 MB raw, as GitHub serves it only that way", async () => {
    const before = gh.fake.requests.length;
    const result = await read({ path: "data/big.txt" });
    const sent = gh.fake.requests.slice(before);
    expect(sent.map((request) => request.headers.accept)).toEqual([
      "application/vnd.github.v3+json",
      "application/vnd.github.raw+json",
    ]);
    expect(sent.every((request) => request.path === "/repos/octocat/hello-world/contents/data/big.txt")).toBe(
      true,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({ binary: false, startLine: 1, truncated: true });
    expect(
      (result.data as { content: string }).content.startsWith("0123456789abcdef\n0123456789abcdef\n"),
    ).toBe(true);
  });

  it("recognises a binary file over 1 MB from its raw bytes, decoded or not", async () => {
    const result = await read({ path: "data/big.bin" });
    expect(result.ok && result.data).toMatchObject({ binary: true, content: null });
  });

  it("says a file over the raw cap is too large and does not download it", async () => {
    const before = gh.fake.requests.length;
    const result = await read({ path: "data/huge.txt" });
    expect(gh.fake.requests.length - before).toBe(1);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({ content: null, size: RAW_FILE_CAP + 1 });
    expect((result.data as { note: string }).note).toMatch(/not read here.*github_search_code/);
  });

  it("says a missing file may be missing or out of reach, naming it", async () => {
    const result = await read({ path: "src/nowhere.ts" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("upstream_error");
      expect(result.error.message).toMatch(/src\/nowhere\.ts in octocat\/hello-world.*no access/);
    }
  });

  it.each([
    { path: "../../etc/passwd" },
    { path: "/etc/passwd" },
    { path: "src//index.ts" },
    { path: "src/./index.ts" },
    { path: "src/index.ts\u0000" },
    { path: "" },
    { path: "README.md", ref: "main..other" },
    { path: "README.md", ref: "a branch" },
    { path: "README.md", ref: "refs/heads/x.lock" },
  ])("refuses $path at $ref before any request", async (input) => {
    const before = gh.fake.requests.length;
    const result = await read(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("invalid_input");
    expect(gh.fake.requests.length).toBe(before);
  });

  it("reports a moved repository's 301 as the redirect egress did not follow, not as a GitHub failure", async () => {
    gh.fake.failNext("GET", "/repos/octocat/hello-world/contents/README.md", {
      status: 301,
      headers: { location: `${gh.fake.url}/repositories/1296269/contents/README.md` },
      body: {
        message: "Moved Permanently",
        url: "https://api.github.com/repositories/1296269/contents/README.md",
      },
    });
    const result = await read({ path: "README.md" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("egress_refused");
      expect(result.error.message).toMatch(/redirected \(301\).*not followed/);
    }
  });

  it("tells GitHub's secondary rate limit apart and says how long to wait", async () => {
    gh.fake.failNext("GET", "/repos/octocat/hello-world/contents/README.md", {
      status: 403,
      headers: { "retry-after": "30" },
      body: {
        message:
          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.",
        documentation_url:
          "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
      },
    });
    const result = await read({ path: "README.md" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({
        code: "upstream_rate_limited",
        retryable: true,
        retryAfterMs: 30_000,
      });
      expect(result.error.message).toMatch(/secondary rate limit/);
    }
  });
});
