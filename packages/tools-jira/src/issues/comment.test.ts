import { approvalIdOf } from "toolreg";
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

describe("jira_comment", () => {
  it("parks for approval and sends nothing until a person approves", async () => {
    expect(approvalIdOf(await jira.call("jira_comment", { key: "PROJ-7", body: "hi" }))).toEqual(
      expect.any(String),
    );
    expect(jira.fake.requests).toEqual([]);
  });

  it("POSTs the markdown as an ADF body and returns the comment's id", async () => {
    const result = await jira.callApproved("jira_comment", {
      key: "PROJ-7",
      body: "Repro:\n\n```sh\ncurl -i /pay\n```\n\n> from the log",
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(jira.fake.requests).toMatchObject([
      {
        method: "POST",
        path: "/rest/api/3/issue/PROJ-7/comment",
        body: {
          body: {
            type: "doc",
            version: 1,
            content: [
              { type: "paragraph", content: [{ type: "text", text: "Repro:" }] },
              {
                type: "codeBlock",
                attrs: { language: "sh" },
                content: [{ type: "text", text: "curl -i /pay" }],
              },
              {
                type: "blockquote",
                content: [{ type: "paragraph", content: [{ type: "text", text: "from the log" }] }],
              },
            ],
          },
        },
      },
    ]);
    const stored = jira.site.issues.get("PROJ-7")?.comments.at(-1);
    expect(result).toMatchObject({
      ok: true,
      content: `Commented on PROJ-7 (comment ${stored?.id}): https://acme.atlassian.net/browse/PROJ-7?focusedCommentId=${stored?.id}`,
      data: { key: "PROJ-7", commentId: stored?.id },
    });
  });

  it("writes quotes inside quotes and list items as ADF Jira takes (their blocks join the container)", async () => {
    const result = await jira.callApproved("jira_comment", {
      key: "PROJ-7",
      body: "> > nested\n\n- > in an item",
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(jira.fake.requests.at(-1)?.body).toEqual({
      body: {
        type: "doc",
        version: 1,
        content: [
          {
            type: "blockquote",
            content: [{ type: "paragraph", content: [{ type: "text", text: "nested" }] }],
          },
          {
            type: "bulletList",
            content: [
              {
                type: "listItem",
                content: [{ type: "paragraph", content: [{ type: "text", text: "in an item" }] }],
              },
            ],
          },
        ],
      },
    });
  });

  it("refuses an empty, oversized or too deeply nested comment, or a key that is not one, before sending anything", async () => {
    for (const input of [
      { key: "PROJ-7", body: "   \n" },
      { key: "PROJ-7", body: "x".repeat(32_001) },
      { key: "PROJ-7", body: "bell \u0007" },
      { key: "PROJ-7?notify=false", body: "x" },
      // Markdown that would hold the parser for seconds: refused by a linear scan first.
      { key: "PROJ-7", body: ">".repeat(31_000) },
      { key: "PROJ-7", body: "*a".repeat(16_000) },
    ]) {
      const result = await jira.call("jira_comment", input);
      expect(result.ok ? "ok" : result.error.code, JSON.stringify(input).slice(0, 60)).toBe("invalid_input");
    }
    expect(jira.fake.requests).toEqual([]);
  });
});
