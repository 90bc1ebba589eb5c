import { approvalIdOf } from "toolreg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BASIC_HEADER,
  type ConfluenceHarness,
  failureOf,
  startConfluenceHarness,
  successOf,
} from "../fake/confluence-harness.js";
import { RUNBOOK_ID } from "../fake/confluence-site.js";

let confluence: ConfluenceHarness;
beforeAll(async () => {
  confluence = await startConfluenceHarness();
});
afterAll(() => confluence.close());
beforeEach(() => confluence.forget());

describe("confluence_comment", () => {
  it("parks for approval, then POSTs a footer comment on the page in storage format", async () => {
    const input = { pageId: RUNBOOK_ID, markdown: "Step 2 needs `--dry-run` <first>" };
    expect(approvalIdOf(await confluence.call("confluence_comment", input))).toEqual(expect.any(String));
    expect(confluence.sent()).toEqual([]);
    const result = successOf(await confluence.callApproved("confluence_comment", input));
    const [sent] = confluence.sent();
    expect(sent).toMatchObject({
      method: "POST",
      path: "/wiki/api/v2/footer-comments",
      headers: { authorization: BASIC_HEADER },
    });
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      pageId: RUNBOOK_ID,
      body: { representation: "storage", value: "<p>Step 2 needs <code>--dry-run</code> &lt;first&gt;</p>" },
    });
    const data = result.data as { id: string; url: string };
    expect(data.url).toBe(
      `https://acme.atlassian.net/wiki/spaces/ENG/pages/${RUNBOOK_ID}?focusedCommentId=${data.id}#comment-${data.id}`,
    );
    expect(confluence.fake.site.comments.at(-1)).toMatchObject({ id: data.id, pageId: RUNBOOK_ID });
  });

  it("says a page it cannot comment on may not exist or be hidden from this account", async () => {
    const error = failureOf(
      await confluence.callApproved("confluence_comment", { pageId: "424242", markdown: "hi" }),
    );
    expect(error).toMatchObject({ code: "upstream_error", details: { status: 404 } });
    expect(error.message).toMatch(/no page 424242/);
  });

  it("refuses an empty comment, a long one and a bad page id before parking", async () => {
    for (const input of [
      { pageId: RUNBOOK_ID, markdown: "" },
      { pageId: RUNBOOK_ID, markdown: "x".repeat(20_001) },
      { pageId: "12/../34", markdown: "x" },
    ]) {
      expect(failureOf(await confluence.call("confluence_comment", input)).code).toBe("invalid_input");
    }
    expect(confluence.sent()).toEqual([]);
  });
});
