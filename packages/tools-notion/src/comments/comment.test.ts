import { approvalIdOf } from "toolreg";
import { describe, expect, it } from "vitest";
import { failureOf, success, useNotionHarness } from "../fake/notion-harness.js";
import { HANDBOOK, TEST_TOKEN } from "../fake/notion-world.js";

const notion = useNotionHarness();

describe("notion_comment", () => {
  it("parks for approval and sends nothing until a person approves", async () => {
    const parked = await notion().call("notion_comment", { pageId: HANDBOOK, text: "Looks good" });
    expect(approvalIdOf(parked)).toEqual(expect.any(String));
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("POSTs /v1/comments on a page, then replies in its discussion", async () => {
    const first = success(
      await notion().callApproved("notion_comment", { pageId: HANDBOOK, text: "Looks good\nship it" }),
    );
    const sent = notion().fake.requests.at(-1);
    expect(sent?.method).toBe("POST");
    expect(sent?.path).toBe("/v1/comments");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      parent: { page_id: HANDBOOK },
      rich_text: [{ type: "text", text: { content: "Looks good\nship it" } }],
    });
    const { id, discussionId } = first.data as { id: string; discussionId: string };
    expect(first.content).toBe(`Commented on page ${HANDBOOK}: comment ${id} in discussion ${discussionId}`);

    success(
      await notion().callApproved("notion_comment", {
        discussionId: discussionId.replace(/-/g, ""),
        text: "Agreed",
      }),
    );
    expect(JSON.parse(notion().fake.requests.at(-1)?.body ?? "")).toEqual({
      discussion_id: discussionId,
      rich_text: [{ type: "text", text: { content: "Agreed" } }],
    });
    expect(notion().fake.world.comments.map((comment) => comment.discussion_id)).toEqual([
      discussionId,
      discussionId,
    ]);
  });

  it("splits a comment past 2,000 characters into text objects within Notion's limit", async () => {
    success(await notion().callApproved("notion_comment", { pageId: HANDBOOK, text: "y".repeat(4500) }));
    const body = JSON.parse(notion().fake.requests.at(-1)?.body ?? "") as {
      rich_text: { text: { content: string } }[];
    };
    expect(body.rich_text.map((item) => item.text.content.length)).toEqual([2000, 2000, 500]);
  });

  it("says the integration lacks the comment capability on a 403", async () => {
    notion().fake.next("restricted");
    const error = failureOf(await notion().callApproved("notion_comment", { pageId: HANDBOOK, text: "Hi" }));
    expect(error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(error.message).toMatch(/read\/insert comments/);
  });

  it("answers a 429 with Retry-After", async () => {
    notion().fake.next("rate_limited");
    const error = failureOf(await notion().callApproved("notion_comment", { pageId: HANDBOOK, text: "Hi" }));
    expect(error).toMatchObject({ code: "upstream_rate_limited", retryAfterMs: 7000 });
  });

  it("fails with auth_required naming the credentialRef when no token is stored: nothing is sent", async () => {
    const error = failureOf(
      await notion().callApproved("notion_comment", { pageId: HANDBOOK, text: "Hi" }, null),
    );
    expect(error.code).toBe("auth_required");
    expect(error.details).toMatchObject({ credentialRef: "notion" });
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("refuses hostile input before parking or sending", async () => {
    for (const input of [
      { text: "no target" },
      { pageId: HANDBOOK, discussionId: HANDBOOK, text: "both" },
      { pageId: HANDBOOK, text: "" },
      { pageId: HANDBOOK, text: "nul\u0000" },
      { pageId: HANDBOOK, text: "\u2066isolate" },
      { pageId: HANDBOOK, text: "x".repeat(20_001) },
      { pageId: "https://notion.so/x", text: "hi" },
    ]) {
      expect(
        failureOf(await notion().call("notion_comment", input)).code,
        JSON.stringify(input).slice(0, 60),
      ).toBe("invalid_input");
    }
    expect(notion().fake.requests).toHaveLength(0);
  });
});
