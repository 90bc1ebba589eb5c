import { approvalIdOf } from "toolreg";
import { describe, expect, it } from "vitest";
import { failureOf, success, useNotionHarness } from "../fake/notion-harness.js";
import { HANDBOOK, TASKS, TEST_TOKEN } from "../fake/notion-world.js";

const notion = useNotionHarness();

const created = () =>
  notion().fake.requests.filter((request) => request.method === "POST" && request.path === "/v1/pages");

describe("notion_create_page", () => {
  it("parks for approval and sends nothing until a person approves", async () => {
    const parked = await notion().call("notion_create_page", { dataSourceId: TASKS, title: "Write docs" });
    expect(approvalIdOf(parked)).toEqual(expect.any(String));
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("reads the data source's schema, then POSTs /v1/pages with the values in Notion's shapes and the content as blocks", async () => {
    const result = success(
      await notion().callApproved("notion_create_page", {
        dataSourceId: TASKS.replace(/-/g, ""),
        title: "Write docs",
        properties: {
          Status: "In progress",
          Priority: "High",
          Tags: ["docs", "q4"],
          Due: "2026-12-24",
          Estimate: 3,
          Blocked: false,
        },
        markdown: "# Plan\n\n- outline\n- [ ] draft",
      }),
    );
    const [schema, create] = notion().fake.requests;
    expect(schema?.method).toBe("GET");
    expect(schema?.path).toBe(`/v1/data_sources/${TASKS}`);
    expect(create?.path).toBe("/v1/pages");
    expect(create?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(JSON.parse(create?.body ?? "")).toEqual({
      parent: { type: "data_source_id", data_source_id: TASKS },
      properties: {
        Name: { title: [{ type: "text", text: { content: "Write docs" } }] },
        Status: { status: { name: "In progress" } },
        Priority: { select: { name: "High" } },
        Tags: { multi_select: [{ name: "docs" }, { name: "q4" }] },
        Due: { date: { start: "2026-12-24" } },
        Estimate: { number: 3 },
        Blocked: { checkbox: false },
      },
      children: [
        {
          object: "block",
          type: "heading_1",
          heading_1: { rich_text: [{ type: "text", text: { content: "Plan" } }] },
        },
        {
          object: "block",
          type: "bulleted_list_item",
          bulleted_list_item: { rich_text: [{ type: "text", text: { content: "outline" } }] },
        },
        {
          object: "block",
          type: "to_do",
          to_do: { rich_text: [{ type: "text", text: { content: "draft" } }], checked: false },
        },
      ],
    });
    const data = result.data as { id: string; blocks: number };
    expect(data.blocks).toBe(3);
    expect(notion().fake.world.pages.get(data.id)?.properties.Status).toMatchObject({
      status: { name: "In progress" },
    });
    expect(result.content).toMatch(
      /^Created page [0-9a-f-]{36} \(https:\/\/www\.notion\.so\/[0-9a-f]{32}\) in data source "Tasks"/,
    );
  });

  it("refuses a property name the schema lacks, listing the real names and types, and writes nothing — though Notion would have taken it", async () => {
    const error = failureOf(
      await notion().callApproved("notion_create_page", {
        dataSourceId: TASKS,
        title: "Write docs",
        properties: { status: "Done", Owner: "Ada" },
      }),
    );
    expect(error.code).toBe("precondition_failed");
    expect(error.message).toContain('"status" is not a property of data source "Tasks"');
    expect(error.message).toContain('(did you mean "Status"?)');
    expect(error.message).toContain('"Owner" is not a property');
    expect(error.message).toContain('"Name" (title), "Status" (status), "Priority" (select)');
    expect(error.details).toMatchObject({
      unknownProperties: ["status", "Owner"],
      properties: { Name: "title", Status: "status", Due: "date", Created: "created_time" },
    });
    expect(notion().fake.writes()).toHaveLength(0);

    // What issue #24 is about: the same write sent straight to Notion (here its fake) is a 200, the name dropped.
    const response = await fetch(`${notion().fake.url}/v1/pages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TEST_TOKEN}`,
        "notion-version": "2025-09-03",
        "content-type": "application/json",
      },
      body: JSON.stringify({
        parent: { data_source_id: TASKS },
        properties: {
          Name: { title: [{ text: { content: "Write docs" } }] },
          Owner: { rich_text: [{ text: { content: "Ada" } }] },
        },
      }),
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { properties: Record<string, unknown> };
    expect(Object.keys(page.properties)).toEqual(["Name"]);
  });

  it.each(["accept", "reject"] as const)(
    "refuses an unknown name before any write whichever way Notion answers it (%s)",
    async (answer) => {
      notion().fake.unknownProperties = answer;
      const error = failureOf(
        await notion().callApproved("notion_create_page", {
          dataSourceId: TASKS,
          properties: { Name: "x", Owner: "Ada", constructor: "x" },
        }),
      );
      expect(error.code).toBe("precondition_failed");
      expect(error.details).toMatchObject({ unknownProperties: ["Owner", "constructor"] });
      expect(notion().fake.writes()).toHaveLength(0);

      // Straight to the fake: a 200 with the name dropped, or Notion's 400 naming it.
      const response = await fetch(`${notion().fake.url}/v1/pages`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${TEST_TOKEN}`,
          "notion-version": "2025-09-03",
          "content-type": "application/json",
        },
        body: JSON.stringify({
          parent: { data_source_id: TASKS },
          properties: { Owner: { rich_text: [{ text: { content: "Ada" } }] } },
        }),
      });
      const body = (await response.json()) as Record<string, unknown>;
      if (answer === "accept") expect(response.status).toBe(200);
      else
        expect(body).toMatchObject({
          status: 400,
          code: "validation_error",
          message: "Owner is not a property that exists.",
        });
    },
  );

  it("refuses hidden characters, line breaks and overlong text in property names and values, sending nothing", async () => {
    for (const properties of [
      { Name: "evil\r\nline" },
      { Name: "rtl\u202e" },
      { Name: "nul\u0000" },
      { Priority: "hi\u0007" },
      { Priority: "a\u2028b" },
      { Priority: "two\nlines" },
      { Name: "x".repeat(2001) },
      { Notes: "x".repeat(20_001) },
      { Tags: ["ok", "bad\u200b"] },
      { "Na\nme": "x" },
      { "Name\u202e": "x" },
    ]) {
      const result = await notion().callApproved("notion_create_page", { dataSourceId: TASKS, properties });
      expect(["invalid_input", "precondition_failed"], JSON.stringify(properties)).toContain(
        failureOf(result).code,
      );
    }
    expect(notion().fake.writes()).toHaveLength(0);
  });

  it("refuses values of the wrong kind for each property's type, and computed properties, all in one answer", async () => {
    const error = failureOf(
      await notion().callApproved("notion_create_page", {
        dataSourceId: TASKS,
        properties: {
          Name: 5,
          Status: "Shipped",
          Estimate: "three",
          Blocked: "no",
          Due: "next week",
          Link: "not a url",
          Created: "2026-01-01",
        },
      }),
    );
    expect(error.code).toBe("precondition_failed");
    expect(error.details?.invalidValues).toEqual([
      '"Name" is a title property and takes text or null, not a number',
      '"Status" is a status property: "Shipped" is not one of its options (Not started, In progress, Done), and the API cannot add one',
      '"Estimate" is a number property and takes a number or null, not text',
      '"Blocked" is a checkbox property and takes true or false (null unchecks), not text',
      '"Due" is a date property and takes a date (YYYY-MM-DD or an ISO 8601 date-time) or null, not text',
      '"Link" is a url property and takes an absolute URL of at most 2,000 characters or null, not text',
      '"Created" is a created_time property, computed by Notion: it cannot be written',
    ]);
    expect(notion().fake.writes()).toHaveLength(0);
  });

  it("creates a page under a page with only a title, and refuses other properties there", async () => {
    const result = success(
      await notion().callApproved("notion_create_page", { parentPageId: HANDBOOK, title: "Onboarding" }),
    );
    expect(notion().fake.requests).toHaveLength(1);
    expect(JSON.parse(notion().fake.requests[0]?.body ?? "")).toEqual({
      parent: { type: "page_id", page_id: HANDBOOK },
      properties: { title: { title: [{ type: "text", text: { content: "Onboarding" } }] } },
    });
    expect((result.data as { blocks: number }).blocks).toBe(0);
    const error = failureOf(
      await notion().callApproved("notion_create_page", {
        parentPageId: HANDBOOK,
        title: "X",
        properties: { Status: "Done" },
      }),
    );
    expect(error.code).toBe("precondition_failed");
    expect(error.message).toContain('"Status" is not a property of a page outside any data source');
    expect(notion().fake.writes()).toHaveLength(1);
  });

  it("keeps within Notion's limits: 2,000 characters a text object, 100 blocks a request, the rest appended in order", async () => {
    const long = "x".repeat(4100);
    const markdown = [long, ...Array.from({ length: 149 }, (_, index) => `- item ${index + 1}`)].join("\n\n");
    const result = success(
      await notion().callApproved("notion_create_page", { parentPageId: HANDBOOK, title: "Big", markdown }),
    );
    const [create, append] = notion().fake.writes();
    const createBody = JSON.parse(create?.body ?? "") as {
      children: { paragraph?: { rich_text: { text: { content: string } }[] } }[];
    };
    expect(createBody.children).toHaveLength(100);
    expect(createBody.children[0]?.paragraph?.rich_text.map((item) => item.text.content.length)).toEqual([
      2000, 2000, 100,
    ]);
    const id = (result.data as { id: string }).id;
    expect(append?.method).toBe("PATCH");
    expect(append?.path).toBe(`/v1/blocks/${id}/children`);
    expect((JSON.parse(append?.body ?? "") as { children: unknown[] }).children).toHaveLength(50);
    expect((result.data as { blocks: number }).blocks).toBe(150);
    expect(notion().fake.world.children.get(id)).toHaveLength(150);
  });

  it("says the page WAS created, with its id, when appending the rest of its content fails", async () => {
    const markdown = Array.from({ length: 150 }, (_, index) => `line ${index}`).join("\n\n");
    notion().fake.failAfter(1, "unavailable");
    const error = failureOf(
      await notion().callApproved("notion_create_page", { parentPageId: HANDBOOK, title: "Long", markdown }),
    );
    const append = notion().fake.requests.find((request) => request.method === "PATCH");
    const pageId = append?.path.split("/")[3];
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /WAS created, with the first 100 blocks.*do not create it again.*notion_append_blocks/,
    );
    expect(error.details).toMatchObject({ blocksWritten: 100, outcomeUnknown: true });
    expect(pageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.details?.pageId).toBe(pageId);
    expect(created()).toHaveLength(1);
  });

  it("tells a 503 on the create as an unknown outcome, not retryable, saying to look first", async () => {
    notion().fake.failAfter(0, "unavailable");
    const error = failureOf(
      await notion().callApproved("notion_create_page", { parentPageId: HANDBOOK, title: "X" }),
    );
    expect(error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(error.message).toMatch(/outcome of the new page .* is unknown.*notion_search before trying again/);
  });

  it("answers a 429 on the write with Retry-After, having sent it once", async () => {
    notion().fake.next("rate_limited");
    const error = failureOf(
      await notion().callApproved("notion_create_page", { parentPageId: HANDBOOK, title: "Later" }),
    );
    expect(error).toMatchObject({ code: "upstream_rate_limited", retryAfterMs: 7000 });
    expect(created()).toHaveLength(1);
  });

  it("fails with auth_required naming the credentialRef when no token is stored: nothing is sent", async () => {
    const error = failureOf(
      await notion().callApproved("notion_create_page", { parentPageId: HANDBOOK, title: "X" }, null),
    );
    expect(error.code).toBe("auth_required");
    expect(error.details).toMatchObject({ credentialRef: "notion" });
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("refuses hostile input before parking or sending", async () => {
    for (const input of [
      { title: "No parent" },
      { dataSourceId: TASKS, parentPageId: HANDBOOK, title: "Both" },
      { dataSourceId: "tasks", title: "X" },
      { parentPageId: HANDBOOK, title: "line\nbreak" },
      { parentPageId: HANDBOOK, title: "x".repeat(2001) },
      { parentPageId: HANDBOOK, title: "ok", markdown: "bell\u0007" },
      { parentPageId: HANDBOOK, title: "ok", markdown: "x".repeat(100_001) },
      { dataSourceId: TASKS, properties: { Estimate: Number.NaN } },
      { dataSourceId: TASKS, properties: { Tags: { $where: "1" } } },
      // 100,000 three-byte characters of markdown and 100,000 more of properties: over 500 KB in one body.
      {
        parentPageId: HANDBOOK,
        title: "ok",
        markdown: "日".repeat(100_000),
        properties: Object.fromEntries(
          Array.from({ length: 6 }, (_, index) => [`p${index}`, "日".repeat(19_000)]),
        ),
      },
    ]) {
      const result = await notion().call("notion_create_page", input);
      expect(failureOf(result).code, JSON.stringify(input)).toBe("invalid_input");
    }
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("refuses markdown that makes more blocks than one call writes, before anything is sent", async () => {
    const markdown = Array.from({ length: 1001 }, () => "---").join("\n");
    const error = failureOf(
      await notion().callApproved("notion_create_page", { parentPageId: HANDBOOK, title: "X", markdown }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/1001 blocks, more than the 1000/);
    expect(notion().fake.requests).toHaveLength(0);
  });
});
