import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import { type IssueHarness, primaryRateLimit, startIssueHarness } from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness();
});
afterAll(() => h.gh.close());

const repo = { owner: "octocat", repo: "hello-world" };
const call = (input: Record<string, unknown> = {}) =>
  h.gh.seam.call(h.gh.context(), "github_list_labels", { ...repo, ...input });

describe("github_list_labels", () => {
  it("GETs the repository's labels with the credential egress injected", async () => {
    const result = await call();
    const sent = h.gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/labels");
    expect(sent?.query).toEqual({ per_page: "100" });
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result).toMatchObject({
      ok: true,
      data: {
        complete: true,
        items: [
          { name: "bug", description: "Something isn't working", color: "f29513", default: true },
          { name: "enhancement" },
          { name: "question" },
          { name: "good first issue", description: null },
        ],
      },
      provenance: { source: "https://api.github.com/repos/octocat/hello-world/labels", trusted: false },
    });
    if (result.ok)
      expect(result.content).toMatch(/\n4 labels of octocat\/hello-world:\nbug — Something isn't working/);
  });

  it("stops at the limit with one page asked for, and says there are more", async () => {
    const before = h.gh.fake.requests.length;
    const result = await call({ limit: 2 });
    expect(h.gh.fake.requests.length - before).toBe(1);
    expect(h.gh.fake.requests.at(-1)?.query).toEqual({ per_page: "2" });
    expect(result).toMatchObject({ ok: true, truncated: true, data: { complete: false } });
    if (result.ok) expect(result.content).toMatch(/the first 2 labels .*there are more/);
  });

  it("reports a primary rate limit GitHub answers with 429", async () => {
    h.gh.fake.failNext("GET", "/repos/octocat/hello-world/labels", { ...primaryRateLimit(120), status: 429 });
    const result = await call();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "upstream_rate_limited", details: { limit: "primary" } });
    expect(result.error.message).toMatch(/primary rate limit is spent \(5000 requests an hour/);
  });

  it("says a 404 may mean no access", async () => {
    const result = await call({ repo: "private-thing" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/no labels of octocat\/private-thing.*no access/);
  });
});
