import { approvalIdOf } from "toolreg";
import { describe, expect, it } from "vitest";
import { failureOf, success, useNotionHarness } from "../fake/notion-harness.js";
import { HANDBOOK, TEST_TOKEN } from "../fake/notion-world.js";

const notion = useNotionHarness();

const items = (count: number) =>
  Array.from({ length: count }, (_, index) => `${index + 1}. step ${index + 1}`).join("\n");

describe("notion_append_blocks", () => {
  it("parks for approval and sends nothing until a person approves", async () => {
    const parked = await notion().call("notion_append_blocks", { blockId: HANDBOOK, markdown: "Hi" });
    expect(approvalIdOf(parked)).toEqual(expect.any(String));
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("PATCHes /v1/blocks/{id}/children with the markdown as blocks, and they follow what was there", async () => {
    const before = notion().fake.world.children.get(HANDBOOK)?.length ?? 0;
    const result = success(
      await notion().callApproved("notion_append_blocks", {
        blockId: HANDBOOK,
        markdown: "## Update\n\nShipped **v2**.\nSecond line\n\n> quoted\n\n```ts\nconst a = 1;\n```\n\n---",
      }),
    );
    const sent = notion().fake.requests.at(-1);
    expect(sent?.method).toBe("PATCH");
    expect(sent?.path).toBe(`/v1/blocks/${HANDBOOK}/children`);
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      children: [
        {
          object: "block",
          type: "heading_2",
          heading_2: { rich_text: [{ type: "text", text: { content: "Update" } }] },
        },
        {
          object: "block",
          type: "paragraph",
          paragraph: { rich_text: [{ type: "text", text: { content: "Shipped **v2**.\nSecond line" } }] },
        },
        {
          object: "block",
          type: "quote",
          quote: { rich_text: [{ type: "text", text: { content: "quoted" } }] },
        },
        {
          object: "block",
          type: "code",
          code: { rich_text: [{ type: "text", text: { content: "const a = 1;" } }], language: "typescript" },
        },
        { object: "block", type: "divider", divider: {} },
      ],
    });
    expect(result.data).toEqual({ blockId: HANDBOOK, blocks: 5, requests: 1 });
    expect(notion().fake.world.children.get(HANDBOOK)).toHaveLength(before + 5);
  });

  it("sends 250 blocks as requests of 100, 100 and 50, in order", async () => {
    const result = success(
      await notion().callApproved("notion_append_blocks", { blockId: HANDBOOK, markdown: items(250) }),
    );
    const sizes = notion()
      .fake.writes()
      .map((request) => (JSON.parse(request.body) as { children: unknown[] }).children.length);
    expect(sizes).toEqual([100, 100, 50]);
    expect(result.content).toBe(`Appended 250 blocks to ${HANDBOOK} in 3 requests`);
  });

  it("after a failure partway says how many blocks are already there, and is not retryable as it stands", async () => {
    notion().fake.failAfter(1, "unavailable");
    const error = failureOf(
      await notion().callApproved("notion_append_blocks", { blockId: HANDBOOK, markdown: items(150) }),
    );
    expect(notion().fake.writes()).toHaveLength(2);
    expect(error.code).toBe("upstream_error");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/100 blocks were already written to .* append only what is missing/);
    expect(error.details).toMatchObject({ status: 503, blocksWritten: 100 });
  });

  it("answers a 429 with Retry-After, and without it", async () => {
    notion().fake.next("rate_limited");
    expect(
      failureOf(await notion().callApproved("notion_append_blocks", { blockId: HANDBOOK, markdown: "a" })),
    ).toMatchObject({
      code: "upstream_rate_limited",
      retryAfterMs: 7000,
    });
    notion().fake.next("rate_limited_no_wait");
    const bare = failureOf(
      await notion().callApproved("notion_append_blocks", { blockId: HANDBOOK, markdown: "a" }),
    );
    expect(bare.code).toBe("upstream_rate_limited");
    expect(bare.retryAfterMs).toBeUndefined();
  });

  it("fails with auth_required naming the credentialRef when no token is stored: nothing is sent", async () => {
    const error = failureOf(
      await notion().callApproved("notion_append_blocks", { blockId: HANDBOOK, markdown: "a" }, null),
    );
    expect(error.code).toBe("auth_required");
    expect(error.details).toMatchObject({ credentialRef: "notion" });
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("refuses hostile input before parking or sending", async () => {
    for (const input of [
      { blockId: HANDBOOK, markdown: "   \n\t" },
      { blockId: HANDBOOK, markdown: "esc\u001b[31m" },
      { blockId: HANDBOOK, markdown: "cr\ronly" },
      { blockId: HANDBOOK, markdown: "x".repeat(100_001) },
      { blockId: "../pages", markdown: "a" },
      { blockId: HANDBOOK },
    ]) {
      expect(
        failureOf(await notion().call("notion_append_blocks", input)).code,
        JSON.stringify(input).slice(0, 60),
      ).toBe("invalid_input");
    }
    expect(notion().fake.requests).toHaveLength(0);
  });
});
