import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import { type IssueHarness, startIssueHarness } from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness();
});
afterAll(() => h.gh.close());

const repo = { owner: "octocat", repo: "hello-world" };
const call = (input: Record<string, unknown> = {}) =>
  h.gh.seam.call(h.gh.context(), "github_list_milestones", { ...repo, ...input });
const numbers = (data: unknown) => (data as { items: { number: number }[] }).items.map((item) => item.number);

describe("github_list_milestones", () => {
  it("GETs the open milestones by due date with the credential egress injected", async () => {
    const result = await call();
    const sent = h.gh.fake.requests.at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/milestones");
    expect(sent?.query).toEqual({ state: "open", sort: "due_on", direction: "asc", per_page: "100" });
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result).toMatchObject({
      ok: true,
      data: {
        items: [
          {
            number: 1,
            title: "v1.0",
            state: "open",
            description: "The first release",
            dueOn: "2030-01-01T08:00:00Z",
            openIssues: 2,
            closedIssues: 0,
            url: "https://github.com/octocat/hello-world/milestone/1",
          },
          { number: 3, title: "v2.0", dueOn: null },
        ],
      },
      provenance: { source: "https://github.com/octocat/hello-world/milestones", trusted: false },
    });
    if (result.ok) expect(result.content).toMatch(/1: v1\.0 \(open, 2 open, 0 closed, due 2030-01-01\)/);
  });

  it("passes state, sort and direction as asked", async () => {
    const result = await call({ state: "all", sort: "completeness", direction: "desc" });
    expect(h.gh.fake.requests.at(-1)?.query).toMatchObject({
      state: "all",
      sort: "completeness",
      direction: "desc",
    });
    expect(result.ok && numbers(result.data).sort()).toEqual([1, 2, 3]);
  });

  it("stops at the limit with one page asked for, and says there are more", async () => {
    const before = h.gh.fake.requests.length;
    const result = await call({ state: "all", limit: 1 });
    expect(h.gh.fake.requests.length - before).toBe(1);
    expect(result).toMatchObject({ ok: true, truncated: true, data: { complete: false } });
  });

  it("says a 404 may mean no access", async () => {
    const result = await call({ repo: "private-thing" });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error.message).toMatch(/no milestones of octocat\/private-thing.*no access/);
  });
});
