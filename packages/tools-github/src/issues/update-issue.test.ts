import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import { helloWorld, type IssueHarness, startIssueHarness } from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness();
});
afterAll(() => h.gh.close());

const repo = { owner: "octocat", repo: "hello-world" };
const update = (input: Record<string, unknown>) =>
  h.gh.callApproved("github_update_issue", { ...repo, ...input });
const patches = () => h.gh.fake.requests.filter((request) => request.method === "PATCH");
const stored = (number: number) => helloWorld(h.store).issues.find((issue) => issue.number === number);

describe("github_update_issue", () => {
  it("PATCHes only the fields given, with the credential egress injected", async () => {
    const result = await update({ issue_number: 3, title: "Add a dark theme" });
    const sent = patches().at(-1);
    expect(sent?.path).toBe("/repos/octocat/hello-world/issues/3");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.body).toEqual({ title: "Add a dark theme" });
    expect(result).toMatchObject({
      ok: true,
      data: { number: 3, title: "Add a dark theme", labels: ["enhancement"], body: "Body of #3." },
      provenance: { trusted: false },
    });
  });

  it("replaces labels and assignees, and takes the issue out of its milestone with null", async () => {
    const result = await update({ issue_number: 1, labels: ["question"], assignees: [], milestone: null });
    expect(patches().at(-1)?.body).toEqual({ labels: ["question"], assignees: [], milestone: null });
    expect(result).toMatchObject({
      ok: true,
      data: { labels: ["question"], assignees: [], milestone: null },
    });
    expect(stored(1)).toMatchObject({ labels: ["question"], assignees: [], milestone: null });
  });

  it("closes with a reason when asked to", async () => {
    const result = await update({
      issue_number: 8,
      state: "closed",
      state_reason: "not_planned",
      body: "Answered.",
    });
    expect(patches().at(-1)?.body).toEqual({
      state: "closed",
      state_reason: "not_planned",
      body: "Answered.",
    });
    expect(result).toMatchObject({
      ok: true,
      data: { state: "closed", stateReason: "not_planned", body: "Answered." },
    });
  });

  it("says when GitHub silently dropped a milestone change for want of push access", async () => {
    h.store.viewerCanPush = false;
    const result = await update({ issue_number: 6, milestone: 3 });
    h.store.viewerCanPush = true;
    expect(result).toMatchObject({ ok: true, data: { milestone: "v1.0" } });
    if (result.ok) expect((result.data as { note: string }).note).toMatch(/did not apply milestone 3/);
  });

  it("turns GitHub's 422 for a milestone the repository lacks into invalid_input", async () => {
    const result = await update({ issue_number: 6, milestone: 99 });
    expect(result.ok ? "ok" : result.error.code).toBe("invalid_input");
    if (!result.ok) expect(result.error.message).toMatch(/Issue\.milestone is invalid/);
  });

  it("says a 404 may mean no access", async () => {
    const result = await update({ issue_number: 999, title: "Gone" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/octocat\/hello-world#999.*no access/);
  });

  it("refuses a call that changes nothing, or a state reason without closing, before any request", async () => {
    const before = patches().length;
    for (const input of [
      { issue_number: 3 },
      { issue_number: 3, state_reason: "completed" },
      { issue_number: 3, labels: ["a", "a"] },
    ]) {
      const result = await h.gh.seam.call(h.gh.context(), "github_update_issue", { ...repo, ...input });
      expect(result.ok ? "ok" : result.error.code, JSON.stringify(input)).toBe("invalid_input");
    }
    expect(patches().length).toBe(before);
  });
});
