import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import { helloWorld, type IssueHarness, startIssueHarness } from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness();
});
afterAll(() => h.gh.close());

const repo = { owner: "octocat", repo: "hello-world" };
const add = (input: Record<string, unknown>) => h.gh.callApproved("github_add_labels", { ...repo, ...input });

describe("github_add_labels", () => {
  it("POSTs the labels to add with the credential egress injected, and returns all the issue now carries", async () => {
    const result = await add({ issue_number: 7, labels: ["question", "regression"] });
    const sent = h.gh.fake.requests.at(-1);
    expect(sent?.method).toBe("POST");
    expect(sent?.path).toBe("/repos/octocat/hello-world/issues/7/labels");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.body).toEqual({ labels: ["question", "regression"] });
    expect(result).toMatchObject({ ok: true, data: { labels: ["bug", "question", "regression"] } });
    if (result.ok)
      expect(result.content).toContain("octocat/hello-world#7 now carries: bug, question, regression");
    // A label the repository lacked is created, as GitHub does.
    expect(helloWorld(h.store).labels.some((label) => label.name === "regression")).toBe(true);
  });

  it("labels a pull request by its number", async () => {
    const result = await add({ issue_number: 2, labels: ["bug"] });
    expect(result).toMatchObject({ ok: true, data: { labels: ["bug"] } });
  });

  it("says a 404 may mean no access", async () => {
    const result = await add({ issue_number: 999, labels: ["bug"] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/no labels of octocat\/hello-world#999.*no access/);
  });

  it("refuses a name GitHub refuses (over 50 characters), none, or one twice, before any request", async () => {
    const before = h.gh.fake.requests.length;
    for (const labels of [["x".repeat(51)], [], ["bug", "bug"]]) {
      const result = await h.gh.seam.call(h.gh.context(), "github_add_labels", {
        ...repo,
        issue_number: 7,
        labels,
      });
      expect(result.ok ? "ok" : result.error.code).toBe("invalid_input");
    }
    expect(h.gh.fake.requests.length).toBe(before);
  });
});
