import { describe, expect, it } from "vitest";
import { failureOf, success, useNotionHarness } from "../fake/notion-harness.js";
import { blockObject } from "../fake/notion-objects.js";
import { FIRST_TASK, HANDBOOK, LONG_PAGE, LONG_PAGE_BLOCKS, TEST_TOKEN } from "../fake/notion-world.js";

const notion = useNotionHarness({ maxRequests: 10 });

interface PageData {
  page: { id: string; title: string; properties: Record<string, string> };
  blocks?: number;
  requests?: number;
  stoppedBy?: string;
}

/**
 * The markdown in a result's content, as Notion's text was: inside the seam's untrusted-content fence (its
 * two opening lines and closing line dropped, its escapes of markdown structure undone), after the header's
 * blank line, before the note on a limit.
 */
function markdownOf(result: { content: string }): string {
  const body = result.content
    .split("\n")
    .slice(2, -1)
    .join("\n")
    .replace(/\\([#`~=*_-])/g, "$1");
  return body.slice(body.indexOf("\n\n") + 2).replace(/\n\n\[Read [^\n]*\]$/, "");
}

describe("notion_get_page", () => {
  it("GETs the page, then its block tree level by level, and renders it as markdown", async () => {
    const result = success(await notion().call("notion_get_page", { pageId: HANDBOOK.replace(/-/g, "") }));
    const [page, ...children] = notion().fake.requests;
    expect(page?.method).toBe("GET");
    expect(page?.path).toBe(`/v1/pages/${HANDBOOK}`);
    expect(page?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(children[0]?.path).toBe(`/v1/blocks/${HANDBOOK}/children`);
    expect(children[0]?.query).toEqual({ page_size: "100" });
    const data = result.data as PageData;
    expect(data.page.title).toBe("Team handbook");
    expect(data.stoppedBy).toBeUndefined();
    expect(result.truncated).toBeFalsy();
    // The list item's child, its grandchild, and the toggle's child: three more requests; never the child page.
    expect(data.requests).toBe(4);
    expect(markdownOf(result).split("\n")).toEqual([
      "# Welcome",
      "Read this first.",
      "- Tools",
      "  - Notion",
      "    Deepest note",
      "1. Install",
      "2. Sign in",
      "- [x] Say hello",
      "- [ ] Book onboarding",
      "```python",
      "print('hi')",
      "```",
      "> Ship it",
      "> 💡 Ask in #help",
      "▸ Details",
      "  Hidden text",
      "---",
      expect.stringMatching(/^\[child page\] Meeting log \([0-9a-f-]{36}\)$/),
      "[bookmark] The guide https://example.com/guide",
    ]);
    expect(result.provenance).toMatchObject({ trusted: false });
  });

  it("reads a data source row's properties as text, and only them when content is false (one request)", async () => {
    const result = success(await notion().call("notion_get_page", { pageId: FIRST_TASK, content: false }));
    expect(notion().fake.requests).toHaveLength(1);
    expect((result.data as PageData).page.properties).toEqual({
      Name: "Task 1",
      Status: "Not started",
      Estimate: "1",
      Blocked: "no",
    });
    expect(result.content).toContain("- Status: Not started");
  });

  it("stops at the depth a model asks for, marks what it left unread, and says so", async () => {
    const result = success(await notion().call("notion_get_page", { pageId: HANDBOOK, maxDepth: 1 }));
    const data = result.data as PageData;
    expect(data.requests).toBe(1);
    expect(data.stoppedBy).toBe("depth");
    expect(result.truncated).toBe(true);
    expect(markdownOf(result)).toContain("- Tools\n  [... nested blocks not read: a limit was reached]");
    expect(result.content).toMatch(/stopped by depth: nested blocks below the depth limit/);
  });

  it("pages through a long page's children with Notion's cursor until the block limit stops it", async () => {
    const result = success(await notion().call("notion_get_page", { pageId: LONG_PAGE, maxBlocks: 150 }));
    const data = result.data as PageData;
    const lists = notion().fake.requests.filter((request) => request.path.endsWith("/children"));
    expect(lists.map((request) => request.query.page_size)).toEqual(["100", "50"]);
    expect(lists[1]?.query.start_cursor).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.blocks).toBe(150);
    expect(data.stoppedBy).toBe("blocks");
    expect(markdownOf(result).split("\n").at(-1)).toBe("Entry 150");
    expect(LONG_PAGE_BLOCKS).toBeGreaterThan(150);
  });

  it("stops at the deployment's request limit", async () => {
    const limited = await (async () => {
      const { startNotionHarness } = await import("../fake/notion-harness.js");
      const harness = await startNotionHarness({ maxRequests: 2 });
      try {
        return success(await harness.call("notion_get_page", { pageId: LONG_PAGE }));
      } finally {
        await harness.close();
      }
    })();
    const data = limited.data as PageData;
    expect(data.requests).toBe(2);
    expect(data.blocks).toBe(200);
    expect(data.stoppedBy).toBe("requests");
  });

  it("stops at the deployment's character limit", async () => {
    const { startNotionHarness } = await import("../fake/notion-harness.js");
    const harness = await startNotionHarness({ maxChars: 1000 });
    try {
      const result = success(await harness.call("notion_get_page", { pageId: LONG_PAGE }));
      const data = result.data as PageData;
      expect(data.stoppedBy).toBe("characters");
      // "Entry 1" … "Entry 9" are 7 characters, the next ones 8 and 9: the reading stops below 1,000.
      expect(markdownOf(result).replace(/\n/g, "").length).toBeLessThanOrEqual(1000);
      expect(data.blocks).toBeLessThan(LONG_PAGE_BLOCKS);
    } finally {
      await harness.close();
    }
  });

  it("delivers a 57,000-character page whole under the default character limit, the markdown once", async () => {
    const { world } = notion().fake;
    const paragraphs = Array.from({ length: 30 }, (_, index) =>
      blockObject({ type: "paragraph", text: `${index} ${"é".repeat(1910)}` }, FIRST_TASK),
    );
    for (const block of paragraphs) world.blocks.set(block.id, block);
    world.children.set(
      FIRST_TASK,
      paragraphs.map((block) => block.id),
    );
    const result = success(await notion().call("notion_get_page", { pageId: FIRST_TASK }));
    expect(result.truncated).toBeFalsy();
    const markdown = markdownOf(result);
    expect(markdown.length).toBeGreaterThan(57_000);
    expect(markdown.endsWith(`29 ${"é".repeat(1910)}`)).toBe(true);
    expect(JSON.stringify(result.data)).not.toContain("é");
  });

  it("a 429 partway ends the read with what was read, naming rate_limit and the wait", async () => {
    notion().fake.failAfter(2, "rate_limited");
    const result = success(await notion().call("notion_get_page", { pageId: LONG_PAGE }));
    const data = result.data as PageData & { retryAfterMs?: number };
    expect(data).toMatchObject({ stoppedBy: "rate_limit", blocks: 100, requests: 2, retryAfterMs: 7000 });
    expect(result.truncated).toBe(true);
    expect(markdownOf(result).split("\n").at(-1)).toBe("Entry 100");
    expect(result.content).toMatch(/stopped by rate_limit: Notion rate-limited the read partway/);
  });

  it("says a page not shared with the integration cannot be found, and what to do", async () => {
    const error = failureOf(
      await notion().call("notion_get_page", { pageId: "99999999-0000-4000-8000-000000000000" }),
    );
    expect(error.code).toBe("upstream_error");
    expect(error.retryable).toBe(false);
    expect(error.details).toMatchObject({ status: 404, notionCode: "object_not_found" });
    expect(error.message).toMatch(/never connected to this integration.*Connections/);
  });

  it("tells a 503 as retryable, and a 403 as the integration's missing capability", async () => {
    notion().fake.next("unavailable");
    const unavailable = failureOf(await notion().call("notion_get_page", { pageId: HANDBOOK }));
    expect(unavailable).toMatchObject({ code: "upstream_error", retryable: true });
    notion().fake.next("restricted");
    const restricted = failureOf(await notion().call("notion_get_page", { pageId: HANDBOOK }));
    expect(restricted.retryable).toBe(false);
    expect(restricted.message).toMatch(/lacks the capability/);
  });

  it("answers a 429 on a children request with Retry-After", async () => {
    notion().fake.next("rate_limited");
    const error = failureOf(await notion().call("notion_get_page", { pageId: HANDBOOK }));
    expect(error).toMatchObject({ code: "upstream_rate_limited", retryAfterMs: 7000 });
  });

  it("fails with auth_required naming the credentialRef when no token is stored: nothing is sent", async () => {
    const error = failureOf(await notion().call("notion_get_page", { pageId: HANDBOOK }, null));
    expect(error.code).toBe("auth_required");
    expect(error.details).toMatchObject({ credentialRef: "notion" });
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("a token Notion refuses (401) is auth_required naming the credentialRef", async () => {
    const error = failureOf(await notion().call("notion_get_page", { pageId: HANDBOOK }, "ntn_revoked"));
    expect(notion().fake.requests.at(-1)?.headers.authorization).toBe("Bearer ntn_revoked");
    expect(error.code).toBe("auth_required");
    expect(error.details).toMatchObject({ credentialRef: "notion", status: 401 });
  });

  it("refuses what is not a Notion id, and limits out of range, before any request", async () => {
    for (const input of [
      { pageId: "../../v1/users" },
      { pageId: `${HANDBOOK}/children` },
      { pageId: "2b3c4d5e00004000800000000000000" },
      { pageId: "zz3c4d5e000040008000000000000001" },
      { pageId: HANDBOOK, maxDepth: 11 },
      { pageId: HANDBOOK, maxBlocks: 0 },
      {},
    ]) {
      expect(failureOf(await notion().call("notion_get_page", input)).code, JSON.stringify(input)).toBe(
        "invalid_input",
      );
    }
    expect(notion().fake.requests).toHaveLength(0);
  });
});
