import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type JiraHarness, startJiraHarness } from "../fake/jira-harness.js";

let jira: JiraHarness;
beforeAll(async () => {
  jira = await startJiraHarness();
});
afterEach(() => {
  jira.fake.requests.length = 0;
});
afterAll(() => jira.close());

describe("jira_get_issue", () => {
  it("GETs the issue with the fields it reads (not its comments), its rich text as markdown, unknown nodes kept as text", async () => {
    const result = await jira.call("jira_get_issue", { key: "PROJ-1" });
    if (!result.ok) throw new Error(result.error.message);
    expect(jira.fake.requests).toMatchObject([
      {
        method: "GET",
        path: "/rest/api/3/issue/PROJ-1",
        query: {
          fields:
            "summary,status,assignee,reporter,issuetype,priority,labels,project,parent,created,updated,description",
        },
      },
      // Only the newest 20 comments, never every one the issue has.
      {
        method: "GET",
        path: "/rest/api/3/issue/PROJ-1/comment",
        query: { orderBy: "-created", maxResults: "20" },
      },
    ]);
    expect(result.data).toMatchObject({
      key: "PROJ-1",
      summary: "Checkout fails with a 500 on Pay",
      status: "To Do",
      type: "Bug",
      priority: "High",
      assignee: "Ann Lee",
      labels: ["checkout", "mobile"],
      url: "https://acme.atlassian.net/browse/PROJ-1",
      description:
        '## Steps\n\n1. Open the cart\n2. Click **Pay**\n\nSeen on mobile only\n\n```json\n{"status": 500}\n```',
      comments: [{ id: "10100", author: "Mia Krystof", body: "@Ann Lee can you look? 👀" }],
      commentsTotal: 1,
    });
    expect(result.content).toContain("# PROJ-1: Checkout fails with a 500 on Pay");
    // The seam fences the text, neutralising its headings; what it says is kept.
    expect(result.content).toContain(
      "Mia Krystof, 2026-11-03T10:00:00.000+0000\n\n@Ann Lee can you look? 👀",
    );
    expect(result.provenance).toMatchObject({ source: "jira:issue/PROJ-1", trusted: false });
  });

  it("shows the newest 20 comments oldest first, and says how many there are", async () => {
    const issue = jira.site.issues.get("PROJ-9");
    const first = jira.site.issues.get("PROJ-1")?.comments[0];
    if (!issue || !first) throw new Error("the fake's site has PROJ-1 and PROJ-9");
    issue.comments = Array.from({ length: 25 }, (_, index) => ({
      ...first,
      id: String(20_000 + index),
      body: {
        type: "doc",
        version: 1,
        content: [{ type: "paragraph", content: [{ type: "text", text: `c${index}` }] }],
      },
    }));
    const result = await jira.call("jira_get_issue", { key: "PROJ-9" });
    if (!result.ok) throw new Error(result.error.message);
    expect((result.data as { comments: { body: string }[] }).comments.map((comment) => comment.body)).toEqual(
      Array.from({ length: 20 }, (_, index) => `c${index + 5}`),
    );
    expect(result.data).toMatchObject({ commentsTotal: 25 });
    expect(result.content).toContain("Comments (newest 20 of 25)");
  });

  it("says plainly when Jira has no such issue (or will not show it)", async () => {
    expect(await jira.call("jira_get_issue", { key: "PROJ-999" })).toMatchObject({
      ok: false,
      error: {
        code: "upstream_error",
        retryable: false,
        message:
          "Jira found no issue PROJ-999 (Jira said: Issue does not exist or you do not have permission to see it): it does not exist or the connected account cannot see it (Jira answers the same for both)",
      },
    });
  });

  it("refuses anything but an issue key before sending anything", async () => {
    for (const key of [
      "proj-1",
      "PROJ-1/../../myself",
      "PROJ-1?expand=x",
      "../PROJ-1",
      "PROJ",
      "P-1",
      "PROJ-1 ",
      "10001",
    ]) {
      const result = await jira.call("jira_get_issue", { key });
      expect(result.ok ? "ok" : result.error.code, key).toBe("invalid_input");
    }
    expect(jira.fake.requests).toEqual([]);
  });
});
