/** @module Hacker News over the fake: stories only, by relevance or date, a date window in Unix seconds, Algolia's errors. */
import { describe, expect, it } from "vitest";
import { sourceReport, useResearchHarness } from "../fake/research-harness.js";

const research = useResearchHarness({ sources: ["hackernews", "arxiv"] });

const hackerNewsReport = () => sourceReport(research, "hackernews");

describe("the Hacker News source", () => {
  it("searches stories by relevance with the count asked", async () => {
    await research.search({ query: "rust & wasm", sources: ["hackernews"], maxResults: 4 });
    expect(research.fake.requests[0]).toMatchObject({
      path: "/api/v1/search",
      query: { query: "rust & wasm", tags: "story", hitsPerPage: "4" },
    });
  });

  it("searches by date with a window from the first second of `from` to the last of `to`", async () => {
    await research.search({
      query: "rust",
      sources: ["hackernews"],
      sort: "date",
      from: "2024-01-01",
      to: "2024-01-01",
    });
    expect(research.fake.requests[0]).toMatchObject({
      path: "/api/v1/search_by_date",
      query: { numericFilters: "created_at_i>=1704067200,created_at_i<=1704153599" },
    });
  });

  it("tells Algolia's 429 as a rate limit with no wait it did not give", async () => {
    research.fake.next("hackernews", "rate-limited");
    const report = await hackerNewsReport();
    expect(report?.error).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(report?.error?.retryAfterMs).toBeUndefined();
  });

  it("waits out a 429 for as long as a Retry-After in front of Algolia says", async () => {
    research.fake.next("hackernews", "rate-limited-retry-after");
    expect((await hackerNewsReport())?.error).toMatchObject({
      code: "upstream_rate_limited",
      retryable: true,
      retryAfterMs: 60_000,
    });
  });

  it("quotes Algolia's message for a refused request", async () => {
    research.fake.next("hackernews", "algolia-error");
    expect((await hackerNewsReport())?.error).toMatchObject({
      code: "upstream_error",
      retryable: false,
      message: expect.stringContaining("invalid numericFilters"),
    });
  });

  it("says so when its JSON is cut off", async () => {
    research.fake.next("hackernews", "bad-json");
    expect((await hackerNewsReport())?.error?.message).toMatch(/other than JSON/);
  });

  it("refuses an answer past the size any search answer has, without reading the rest", async () => {
    research.fake.next("hackernews", "oversized");
    expect((await hackerNewsReport())?.error).toMatchObject({
      code: "upstream_error",
      retryable: false,
      message: expect.stringMatching(/Hacker News sent more than \d+ bytes/),
    });
  });
});
