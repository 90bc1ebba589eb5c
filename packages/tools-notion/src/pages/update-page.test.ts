import { approvalIdOf } from "toolreg";
import { describe, expect, it } from "vitest";
import { failureOf, success, useNotionHarness } from "../fake/notion-harness.js";
import { FIRST_TASK, HANDBOOK, TASKS, TEST_TOKEN } from "../fake/notion-world.js";

const notion = useNotionHarness();

describe("notion_update_page", () => {
  it("parks for approval and sends nothing until a person approves", async () => {
    const parked = await notion().call("notion_update_page", {
      pageId: FIRST_TASK,
      properties: { Status: "Done" },
    });
    expect(approvalIdOf(parked)).toEqual(expect.any(String));
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("reads the page and its data source's schema, then PATCHes only the named properties", async () => {
    const result = success(
      await notion().callApproved("notion_update_page", {
        pageId: FIRST_TASK,
        title: "Task one",
        properties: { Status: "Done", Due: null, Link: "https://example.com/t/1" },
      }),
    );
    expect(notion().fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /v1/pages/${FIRST_TASK}`,
      `GET /v1/data_sources/${TASKS}`,
      `PATCH /v1/pages/${FIRST_TASK}`,
    ]);
    const patch = notion().fake.requests[2];
    expect(patch?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(JSON.parse(patch?.body ?? "")).toEqual({
      properties: {
        Status: { status: { name: "Done" } },
        Due: { date: null },
        Link: { url: "https://example.com/t/1" },
        Name: { title: [{ type: "text", text: { content: "Task one" } }] },
      },
    });
    expect(notion().fake.world.pages.get(FIRST_TASK)?.properties.Status).toMatchObject({
      status: { name: "Done" },
    });
    expect(result.content).toMatch(/^Updated "Status", "Due", "Link", "Name" of page/);
  });

  it("refuses a property name the page's data source lacks, listing the real ones, and sends no PATCH", async () => {
    const error = failureOf(
      await notion().callApproved("notion_update_page", {
        pageId: FIRST_TASK,
        properties: { Assignee: ["5b8e1cbf7d444d10a0b62f0f1e3b9a11"] },
      }),
    );
    expect(error.code).toBe("precondition_failed");
    expect(error.message).toMatch(
      /"Assignee" is not a property of data source "Tasks".*Its properties are: "Name" \(title\)/,
    );
    expect(notion().fake.writes()).toHaveLength(0);
  });

  it.each(["accept", "reject"] as const)(
    "refuses an unknown name (even one on Object's prototype) before the PATCH, whichever way Notion answers it (%s)",
    async (answer) => {
      notion().fake.unknownProperties = answer;
      const error = failureOf(
        await notion().callApproved("notion_update_page", {
          pageId: FIRST_TASK,
          properties: { constructor: "x", Blocked: null },
        }),
      );
      expect(error.code).toBe("precondition_failed");
      expect(error.details).toMatchObject({ unknownProperties: ["constructor"] });
      expect(notion().fake.writes()).toHaveLength(0);
    },
  );

  it("clears with null: unchecked for a checkbox, an empty list for multi_select", async () => {
    success(
      await notion().callApproved("notion_update_page", {
        pageId: FIRST_TASK,
        properties: { Blocked: null, Tags: null },
      }),
    );
    const patch = notion().fake.writes()[0];
    expect(JSON.parse(patch?.body ?? "")).toEqual({
      properties: { Blocked: { checkbox: false }, Tags: { multi_select: [] } },
    });
  });

  it("renames a standalone page through its title property, and refuses others there", async () => {
    success(await notion().callApproved("notion_update_page", { pageId: HANDBOOK, title: "Handbook 2027" }));
    expect(JSON.parse(notion().fake.writes()[0]?.body ?? "")).toEqual({
      properties: { title: { title: [{ type: "text", text: { content: "Handbook 2027" } }] } },
    });
    const error = failureOf(
      await notion().callApproved("notion_update_page", { pageId: HANDBOOK, properties: { Status: "Done" } }),
    );
    expect(error.code).toBe("precondition_failed");
    expect(notion().fake.writes()).toHaveLength(1);
  });

  it("refuses the title given twice", async () => {
    const error = failureOf(
      await notion().callApproved("notion_update_page", {
        pageId: FIRST_TASK,
        title: "A",
        properties: { Name: "B" },
      }),
    );
    expect(error.code).toBe("invalid_input");
    expect(notion().fake.writes()).toHaveLength(0);
  });

  it("tells a conflict_error as retryable after reading again", async () => {
    success(await notion().call("notion_get_page", { pageId: FIRST_TASK, content: false }));
    // The GET of the page and of the schema pass; the PATCH meets the conflict.
    const caller = notion().context();
    const parked = await notion().seam.call(caller, "notion_update_page", {
      pageId: FIRST_TASK,
      properties: { Estimate: 5 },
    });
    const approvalId = approvalIdOf(parked) ?? "";
    await notion().seam.approve({ tenantId: caller.tenantId, approvalId, by: "reviewer" });
    notion().fake.next("conflict");
    const error = failureOf(await notion().seam.resume(caller, approvalId));
    expect(error).toMatchObject({ code: "upstream_error", retryable: true });
    expect(error.message).toMatch(/conflicting change/);
  });

  it("tells a 503 on the PATCH as an unknown outcome, not retryable, saying to read the page first", async () => {
    notion().fake.failAfter(2, "unavailable");
    const error = failureOf(
      await notion().callApproved("notion_update_page", {
        pageId: FIRST_TASK,
        properties: { Blocked: true },
      }),
    );
    expect(notion().fake.writes()).toHaveLength(1);
    expect(error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(error.details).toMatchObject({ status: 503, outcomeUnknown: true });
    expect(error.message).toMatch(/is unknown.*Read the page with notion_get_page before trying again/);
  });

  it("answers a 429 with Retry-After", async () => {
    notion().fake.next("rate_limited");
    const error = failureOf(
      await notion().callApproved("notion_update_page", { pageId: FIRST_TASK, properties: { Estimate: 1 } }),
    );
    expect(error).toMatchObject({ code: "upstream_rate_limited", retryAfterMs: 7000 });
  });

  it("fails with auth_required naming the credentialRef when no token is stored: nothing is sent", async () => {
    const error = failureOf(
      await notion().callApproved("notion_update_page", { pageId: FIRST_TASK, title: "X" }, null),
    );
    expect(error.code).toBe("auth_required");
    expect(error.details).toMatchObject({ credentialRef: "notion" });
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("refuses hostile input before parking or sending", async () => {
    for (const input of [
      { pageId: FIRST_TASK },
      { pageId: FIRST_TASK, properties: {} },
      { pageId: "1 OR 1=1", title: "x" },
      { pageId: FIRST_TASK, title: "\u200binvisible" },
      { pageId: FIRST_TASK, properties: { Status: { name: "Done" } } },
      {
        pageId: FIRST_TASK,
        properties: Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`p${index}`, 1])),
      },
    ]) {
      expect(
        failureOf(await notion().call("notion_update_page", input)).code,
        JSON.stringify(input).slice(0, 80),
      ).toBe("invalid_input");
    }
    expect(notion().fake.requests).toHaveLength(0);
  });
});
