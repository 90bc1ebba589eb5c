import { describe, expect, it } from "vitest";
import { failureOf, success, useNotionHarness } from "../fake/notion-harness.js";
import {
  MULTI_DATABASE,
  MULTI_SOURCES,
  TASK_COUNT,
  TASKS,
  TASKS_DATABASE,
  TEST_TOKEN,
} from "../fake/notion-world.js";

const notion = useNotionHarness({ maxItems: 10 });

interface Rows {
  dataSourceId: string;
  rowIds: string[];
  complete: boolean;
}

/** The row lines of a result's content: "- <id> — <title>; <name>: <value>…", fence escapes undone. */
function rowLines(content: string): string[] {
  return content
    .split("\n")
    .map((line) => line.replace(/^\\-/, "-"))
    .filter((line) => /^- [0-9a-f-]{36} — /.test(line));
}

describe("notion_query_database", () => {
  it("POSTs /v1/data_sources/{id}/query with the filter and sorts, and lists rows with their properties", async () => {
    const result = success(
      await notion().call("notion_query_database", {
        dataSourceId: TASKS,
        filter: { property: "Status", status: { equals: "Done" } },
        sorts: [{ property: "Estimate", direction: "descending" }],
      }),
    );
    const sent = notion().fake.requests.at(-1);
    expect(sent?.method).toBe("POST");
    expect(sent?.path).toBe(`/v1/data_sources/${TASKS}/query`);
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      filter: { property: "Status", status: { equals: "Done" } },
      sorts: [{ property: "Estimate", direction: "descending" }],
      result_type: "page",
      page_size: 10,
    });
    const data = result.data as Rows;
    const lines = rowLines(result.content);
    // Notion sorts; the fake filters only, so the order is not asserted.
    expect(lines.map((line) => /— (Task \d+)/.exec(line)?.[1]).sort()).toEqual([
      "Task 12",
      "Task 3",
      "Task 6",
      "Task 9",
    ]);
    expect(lines.find((line) => line.includes("— Task 3;"))).toMatch(/; Status: Done; Estimate: 3/);
    // Each row once: in content; data holds the ids.
    expect(data.rowIds).toHaveLength(4);
    expect(JSON.stringify(data)).not.toContain("Task 3");
    expect(result.provenance).toMatchObject({ trusted: false });
  });

  it("follows next_cursor to the bound, asking for no more than is left, and says there are more", async () => {
    const result = success(await notion().call("notion_query_database", { dataSourceId: TASKS, limit: 8 }));
    expect(notion().fake.requests).toHaveLength(1);
    expect((result.data as Rows).rowIds).toHaveLength(8);
    expect(result.truncated).toBe(true);
    expect(result.content).toMatch(/the first 8 rows; there are more/);
  });

  it("crosses a page boundary with the cursor Notion gave, asking for what is left, with no row twice", async () => {
    notion().fake.pageCap = 5;
    const result = success(await notion().call("notion_query_database", { dataSourceId: TASKS, limit: 8 }));
    const [first, second] = notion().fake.requests.map(
      (request) => JSON.parse(request.body) as Record<string, unknown>,
    );
    expect(notion().fake.requests).toHaveLength(2);
    expect(first).toMatchObject({ page_size: 8 });
    expect(first?.start_cursor).toBeUndefined();
    const ids = (result.data as Rows).rowIds;
    expect(second).toMatchObject({ page_size: 3, start_cursor: ids[5] });
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
    expect(rowLines(result.content)).toHaveLength(8);
  });

  it("says when Notion reports the query incomplete (request_status), and is not complete", async () => {
    notion().fake.incompleteQuery = true;
    const result = success(await notion().call("notion_query_database", { dataSourceId: TASKS, limit: 3 }));
    expect(result.content).toMatch(/Notion stopped short of every match/);
    expect(result.truncated).toBe(true);
    expect((result.data as Rows).complete).toBe(false);
  });

  it("refuses a filter nested deeper than Notion's compound filters, without overflowing the stack", async () => {
    let filter: Record<string, unknown> = { property: "Status", status: { equals: "Done" } };
    for (let level = 0; level < 20_000; level++) filter = { and: [filter] };
    const error = failureOf(await notion().call("notion_query_database", { dataSourceId: TASKS, filter }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/must nest at most 10 levels/);
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("reads every row when they fit, across Notion's pages", async () => {
    const { startNotionHarness } = await import("../fake/notion-harness.js");
    const harness = await startNotionHarness({ maxItems: 100 });
    try {
      const result = success(await harness.call("notion_query_database", { dataSourceId: TASKS }));
      expect((result.data as Rows).rowIds).toHaveLength(TASK_COUNT);
      expect((result.data as Rows).complete).toBe(true);
    } finally {
      await harness.close();
    }
  });

  it("resolves a database id with one data source to it, and refuses one with several, listing them", async () => {
    const result = success(
      await notion().call("notion_query_database", { databaseId: TASKS_DATABASE, limit: 1 }),
    );
    expect(notion().fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /v1/databases/${TASKS_DATABASE}`,
      `POST /v1/data_sources/${TASKS}/query`,
    ]);
    expect((result.data as Rows).dataSourceId).toBe(TASKS);
    const error = failureOf(await notion().call("notion_query_database", { databaseId: MULTI_DATABASE }));
    expect(error.code).toBe("precondition_failed");
    expect(error.message).toContain(`${MULTI_SOURCES[0]} (2025), ${MULTI_SOURCES[1]} (2026)`);
    expect(notion().fake.requests).toHaveLength(3);
  });

  it("passes Notion's validation_error on a filter back as invalid_input with its message", async () => {
    const error = failureOf(
      await notion().call("notion_query_database", {
        dataSourceId: TASKS,
        filter: { property: "Owner", people: { contains: "x" } },
      }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/Could not find property with name or id: Owner/);
  });

  it("answers a 429 with Retry-After, and a 404 with what to do", async () => {
    notion().fake.next("rate_limited");
    expect(failureOf(await notion().call("notion_query_database", { dataSourceId: TASKS }))).toMatchObject({
      code: "upstream_rate_limited",
      retryAfterMs: 7000,
    });
    const missing = failureOf(
      await notion().call("notion_query_database", { dataSourceId: "00000000000040008000000000000000" }),
    );
    expect(missing.message).toMatch(/find it with notion_search/);
  });

  it("fails with auth_required naming the credentialRef when no token is stored: nothing is sent", async () => {
    const error = failureOf(await notion().call("notion_query_database", { dataSourceId: TASKS }, null));
    expect(error.code).toBe("auth_required");
    expect(error.details).toMatchObject({ credentialRef: "notion" });
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("refuses hostile input before any request", async () => {
    for (const input of [
      {},
      { dataSourceId: TASKS, databaseId: TASKS_DATABASE },
      { dataSourceId: "tasks" },
      { dataSourceId: TASKS, filter: { property: "x".repeat(10_001) } },
      { dataSourceId: TASKS, filter: "Status = Done" },
      { dataSourceId: TASKS, sorts: [{ property: "Name", direction: "up" }] },
      {
        dataSourceId: TASKS,
        sorts: Array.from({ length: 11 }, () => ({ timestamp: "created_time", direction: "ascending" })),
      },
      { dataSourceId: TASKS, limit: 1000 },
    ]) {
      expect(
        failureOf(await notion().call("notion_query_database", input)).code,
        JSON.stringify(input).slice(0, 60),
      ).toBe("invalid_input");
    }
    expect(notion().fake.requests).toHaveLength(0);
  });
});
