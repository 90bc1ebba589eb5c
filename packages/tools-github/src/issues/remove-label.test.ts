import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_TOKEN } from "../fake/github-harness.js";
import { helloWorld, type IssueHarness, startIssueHarness } from "../fake/issues-harness.js";

let h: IssueHarness;
beforeAll(async () => {
  h = await startIssueHarness();
});
afterAll(() => h.gh.close());

const repo = { owner: "octocat", repo: "hello-world" };
const remove = (input: Record<string, unknown>) =>
  h.gh.callApproved("github_remove_label", { ...repo, ...input });

describe("github_remove_label", () => {
  it("DELETEs the label by its name in the path, with the credential egress injected, and returns what is left", async () => {
    const issue = helloWorld(h.store).issues.find((each) => each.number === 12);
    issue?.labels.push("good first issue");
    const result = await remove({ issue_number: 12, label: "good first issue" });
    const sent = h.gh.fake.requests.at(-1);
    expect(sent?.method).toBe("DELETE");
    expect(sent?.path).toBe("/repos/octocat/hello-world/issues/12/labels/good%20first%20issue");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(result).toMatchObject({ ok: true, data: { labels: ["bug"] } });
    expect(issue?.labels).toEqual(["bug"]);
    // The label stays defined in the repository.
    expect(helloWorld(h.store).labels.some((label) => label.name === "good first issue")).toBe(true);
  });

  it("says plainly when the issue does not carry the label (GitHub's 404 Label does not exist)", async () => {
    const result = await remove({ issue_number: 12, label: "question" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.message).toMatch(
      /octocat\/hello-world#12 does not carry the label "question", so nothing was removed/,
    );
  });

  it("keeps GitHub's no-access reading for an issue it cannot find", async () => {
    const result = await remove({ issue_number: 999, label: "bug" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/no access/);
  });

  it("refuses a name longer than GitHub allows, before any request", async () => {
    const before = h.gh.fake.requests.length;
    const result = await h.gh.seam.call(h.gh.context(), "github_remove_label", {
      ...repo,
      issue_number: 12,
      label: "x".repeat(51),
    });
    expect(result.ok ? "ok" : result.error.code).toBe("invalid_input");
    expect(h.gh.fake.requests.length).toBe(before);
  });
});
