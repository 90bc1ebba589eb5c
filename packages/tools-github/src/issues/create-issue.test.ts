import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import {
  helloWorld,
  type IssueHarness,
  secondaryRateLimit,
  startIssueHarness,
} from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness();
});
afterAll(() => h.gh.close());

const repo = { owner: "octocat", repo: "hello-world" };
const create = (input: Record<string, unknown>) =>
  h.gh.callApproved("github_create_issue", { ...repo, ...input });
const posts = () => h.gh.fake.requests.filter((request) => request.method === "POST");

describe("github_create_issue", () => {
  it("parks for approval and sends nothing until it is approved", async () => {
    const before = posts().length;
    const parked = await h.gh.seam.call(h.gh.context(), "github_create_issue", { ...repo, title: "Parked" });
    expect(parked.ok ? "ok" : parked.error.code).toBe("approval_required");
    expect(posts().length).toBe(before);
  });

  it("POSTs the fields given, with the credential egress injected, and returns the new issue", async () => {
    const result = await create({
      title: "Login fails",
      body: "Steps to reproduce…",
      labels: ["bug", "needs-triage"],
      assignees: ["monalisa"],
      milestone: 1,
    });
    const sent = posts().at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/issues");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.body).toEqual({
      title: "Login fails",
      body: "Steps to reproduce…",
      labels: ["bug", "needs-triage"],
      assignees: ["monalisa"],
      milestone: 1,
    });
    expect(result).toMatchObject({
      ok: true,
      data: {
        number: 13,
        title: "Login fails",
        state: "open",
        author: "octocat",
        labels: ["bug", "needs-triage"],
        assignees: ["monalisa"],
        milestone: "v1.0",
        url: "https://github.com/octocat/hello-world/issues/13",
      },
      provenance: { source: "https://github.com/octocat/hello-world/issues/13", trusted: false },
    });
    if (result.ok) expect(result.data).not.toHaveProperty("note");
    // GitHub creates a label the repository lacks: grey, with no description.
    expect(helloWorld(h.store).labels.find((label) => label.name === "needs-triage")).toMatchObject({
      color: "ededed",
      description: null,
    });
  });

  it("sends only the title when only the title is given", async () => {
    await create({ title: "Just a title" });
    expect(posts().at(-1)?.body).toEqual({ title: "Just a title" });
  });

  it("says which labels, assignees and milestone GitHub silently dropped for want of push access", async () => {
    h.store.viewerCanPush = false;
    const result = await create({
      title: "From outside",
      labels: ["bug"],
      assignees: ["hubot"],
      milestone: 1,
    });
    h.store.viewerCanPush = true;
    expect(result).toMatchObject({ ok: true, data: { labels: [], assignees: [], milestone: null } });
    if (result.ok) {
      expect((result.data as { note: string }).note).toMatch(
        /did not apply label bug, assignee hubot, milestone 1: .*no push access/,
      );
    }
  });

  it("turns GitHub's 422 for an unknown assignee into invalid_input naming the field", async () => {
    const result = await create({ title: "Who?", assignees: ["nobody"] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toMatch(/Validation Failed — Issue\.assignees is invalid/);
  });

  it("says GitHub answers 410 when the repository's issues are turned off", async () => {
    const result = await create({ repo: "no-issues", title: "Nowhere" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/410.*Issues are disabled/);
  });

  it("reports GitHub's secondary rate limit on creating content too fast, with its retry-after", async () => {
    h.gh.fake.failNext("POST", "/repos/octocat/hello-world/issues", secondaryRateLimit(60));
    const result = await create({ title: "Too fast" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      code: "upstream_rate_limited",
      retryAfterMs: 60_000,
      details: { limit: "secondary" },
    });
  });

  it("refuses a title GitHub would refuse, and labels or assignees it would, before any request", async () => {
    const before = posts().length;
    const refused = [
      { title: "   " },
      { title: "t".repeat(257) },
      { title: "ok", labels: ["l".repeat(51)] },
      { title: "ok", assignees: Array.from({ length: 11 }, (_, index) => `user${index}`) },
      { title: "ok", body: "b".repeat(65_537) },
    ];
    for (const input of refused) {
      const result = await h.gh.seam.call(h.gh.context(), "github_create_issue", { ...repo, ...input });
      expect(result.ok ? "ok" : result.error.code).toBe("invalid_input");
    }
    expect(posts().length).toBe(before);
  });
});
