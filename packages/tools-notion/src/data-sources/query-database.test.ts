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
  rows: { id: string; title: string; properties: Record<string, string> }[];
  complete: boolean;
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
      page_size: 10,
    });
    const data = result.data as Rows;
    // Notion sorts; the fake filters only, so the order is not asserted.
    expect(data.rows.map((row) => row.title).sort()).toEqual(["Task 12", "Task 3", "Task 6", "Task 9"]);
    expect(data.rows.find((row) => row.title === "Task 3")?.properties).toMatchObject({
      Status: "Done",
      Estimate: "3",
    });
    expect(result.content).toContain("; Status: Done");
    expect(result.provenance).toMatchObject({ trusted: false });
  });

  it("follows next_cursor to the bound, asking for no more than is left, and says there are more", async () => {
    const result = success(await notion().call("notion_query_database", { dataSourceId: TASKS, limit: 8 }));
    expect(notion().fake.requests).toHaveLength(1);
    expect((result.data as Rows).rows).toHaveLength(8);
    expect(result.truncated).toBe(true);
    expect(result.content).toMatch(/the first 8 rows; there are more/);
  });

  it("reads every row when they fit, across Notion's pages", async () => {
    const { startNotionHarness } = await import("../fake/notion-harness.js");
    const harness = await startNotionHarness({ maxItems: 100 });
    try {
      const result = success(await harness.call("notion_query_database", { dataSourceId: TASKS }));
      expect((result.data as Rows).rows).toHaveLength(TASK_COUNT);
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
