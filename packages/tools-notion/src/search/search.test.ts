import { describe, expect, it } from "vitest";
import { failureOf, success, useNotionHarness } from "../fake/notion-harness.js";
import { TASK_COUNT, TASKS, TEST_TOKEN } from "../fake/notion-world.js";
import { NOTION_VERSION } from "../notion-client.js";
import type { SearchHit } from "./search.js";

const notion = useNotionHarness({ maxItems: 5 });

describe("notion_search", () => {
  it("POSTs /v1/search with the token egress injected and the SDK's Notion-Version, and lists what it found", async () => {
    const result = success(await notion().call("notion_search", { query: "Handbook" }));
    const sent = notion().fake.requests.at(-1);
    expect(sent?.method).toBe("POST");
    expect(sent?.path).toBe("/v1/search");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.headers["notion-version"]).toBe("2025-09-03");
    expect(NOTION_VERSION).toBe("2025-09-03");
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      query: "Handbook",
      sort: { timestamp: "last_edited_time", direction: "descending" },
      page_size: 5,
    });
    const data = result.data as { results: SearchHit[]; complete: boolean };
    expect(data.results).toEqual([
      expect.objectContaining({
        object: "page",
        id: "2b3c4d5e-0000-4000-8000-000000000001",
        title: "Team handbook",
      }),
    ]);
    expect(data.complete).toBe(true);
    expect(result.provenance).toMatchObject({ trusted: false });
    expect(result.content).toContain("Team handbook");
  });

  it("sends the object filter for data sources only", async () => {
    const result = success(await notion().call("notion_search", { query: "tasks", kind: "data_source" }));
    expect(JSON.parse(notion().fake.requests.at(-1)?.body ?? "")).toMatchObject({
      filter: { property: "object", value: "data_source" },
    });
    expect((result.data as { results: SearchHit[] }).results).toEqual([
      expect.objectContaining({ object: "data_source", id: TASKS, title: "Tasks" }),
    ]);
  });

  it("stops at the deployment's bound, asks for no more than it needs, and says there are more", async () => {
    const result = success(await notion().call("notion_search", { query: "task", limit: 3 }));
    expect(notion().fake.requests).toHaveLength(1);
    expect(JSON.parse(notion().fake.requests[0]?.body ?? "").page_size).toBe(3);
    expect((result.data as { results: SearchHit[] }).results).toHaveLength(3);
    expect(result.truncated).toBe(true);
    expect(result.content).toMatch(/the first 3 results; there are more/);
    // A model asking for more than the deployment allows gets the deployment's bound.
    const capped = success(await notion().call("notion_search", { query: "task", limit: 100 }));
    expect((capped.data as { results: SearchHit[] }).results).toHaveLength(5);
    expect(TASK_COUNT).toBeGreaterThan(5);
  });

  it("crosses a page boundary with the cursor Notion gave, asking for what is left, with no hit twice", async () => {
    notion().fake.pageCap = 2;
    const result = success(await notion().call("notion_search", { query: "task", limit: 5 }));
    const sent = notion().fake.requests.map((request) => JSON.parse(request.body) as Record<string, unknown>);
    const ids = (result.data as { results: SearchHit[] }).results.map((hit) => hit.id);
    expect(sent.map((body) => body.page_size)).toEqual([5, 3, 1]);
    expect(sent[0]?.start_cursor).toBeUndefined();
    expect(sent[1]?.start_cursor).toBe(ids[2]);
    expect(sent[2]?.start_cursor).toBe(ids[4]);
    expect(new Set(ids).size).toBe(5);
  });

  it("answers Notion's 429 with when to come back (Retry-After), and without it", async () => {
    notion().fake.next("rate_limited");
    const limited = failureOf(await notion().call("notion_search", { query: "x" }));
    expect(limited.code).toBe("upstream_rate_limited");
    expect(limited.retryable).toBe(true);
    expect(limited.retryAfterMs).toBe(7000);
    expect(limited.message).toMatch(/Notion rate-limited the search for "x".*try again in 7 s/);
    notion().fake.next("rate_limited_no_wait");
    const bare = failureOf(await notion().call("notion_search", { query: "x" }));
    expect(bare.code).toBe("upstream_rate_limited");
    expect(bare.retryAfterMs).toBeUndefined();
    expect(bare.message).toMatch(/try again later/);
    // The SDK retried nothing: one request each.
    expect(notion().fake.requests).toHaveLength(2);
  });

  it("fails with auth_required naming the credentialRef, and no consent URL, when no token is stored: nothing is sent", async () => {
    const error = failureOf(await notion().call("notion_search", { query: "x" }, null));
    expect(error.code).toBe("auth_required");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('"notion"');
    expect(error.details).toMatchObject({ credentialRef: "notion" });
    expect(JSON.stringify(error)).not.toMatch(/https?:\/\//);
    expect(notion().fake.requests).toHaveLength(0);
  });

  it("refuses hostile input before any request", async () => {
    for (const input of [
      { query: "a\u0000b" },
      { query: "tasks\u202e" },
      { query: "x".repeat(201) },
      { query: "x", kind: "database" },
      { query: "x", limit: 0 },
      { query: "x", limit: 101 },
    ]) {
      expect(failureOf(await notion().call("notion_search", input)).code, JSON.stringify(input)).toBe(
        "invalid_input",
      );
    }
    expect(notion().fake.requests).toHaveLength(0);
  });
});
