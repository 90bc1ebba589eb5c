/** @module arXiv over the fake: the query built from a user's words, the error feed, throttling (its text and 429 with and without Retry-After), malformed and entity-declaring XML. */
import { describe, expect, it } from "vitest";
import { sourceReport, useResearchHarness } from "../fake/research-harness.js";

const research = useResearchHarness({ sources: ["arxiv", "hackernews"] });

const arxivReport = (input: Record<string, unknown> = {}) => sourceReport(research, "arxiv", input);

describe("the arXiv source", () => {
  it("searches the user's words as words: operators, quotes and field prefixes are taken apart", async () => {
    await research.search({
      query: 'ti:"deep learning" AND (cs.LG OR stat-ML) ANDNOT x',
      sources: ["arxiv"],
      maxResults: 3,
    });
    expect(research.fake.requests[0]?.query).toEqual({
      search_query: "all:ti AND all:deep AND all:learning AND all:cs.LG AND all:stat-ML AND all:x",
      start: "0",
      max_results: "3",
      sortBy: "relevance",
      sortOrder: "descending",
    });
  });

  it("sorts by submission date when asked for newest first", async () => {
    await research.search({ query: "CRISPR", sources: ["arxiv"], sort: "date" });
    expect(research.fake.requests[0]?.query.sortBy).toBe("submittedDate");
  });

  it("leaves arXiv out of a query with no searchable words, before any request to it", async () => {
    const report = await arxivReport({ query: "*** ??? !!!" });
    expect(report).toMatchObject({ status: "skipped" });
    expect(research.fake.requests.some((request) => request.source === "arxiv")).toBe(false);
  });

  it.each(["error-feed", "error-feed-400"] as const)(
    "reads the %s (one entry titled Error) as a failure, not a hit",
    async (scenario) => {
      research.fake.next("arxiv", scenario);
      expect(await arxivReport()).toMatchObject({
        status: "failed",
        count: 0,
        error: {
          code: "upstream_error",
          retryable: false,
          message: expect.stringContaining("incorrect id format for 1234.12345"),
        },
      });
    },
  );

  it.each(["rate-exceeded", "rate-exceeded-200"] as const)(
    "tells arXiv's 'Rate exceeded.' (%s) as a rate limit, waiting the three seconds its terms ask",
    async (scenario) => {
      research.fake.next("arxiv", scenario);
      expect(await arxivReport()).toMatchObject({
        status: "failed",
        error: { code: "upstream_rate_limited", retryable: true, retryAfterMs: 3000 },
      });
    },
  );

  it("tells a bare 429 as a rate limit, promising no wait arXiv did not give", async () => {
    research.fake.next("arxiv", "rate-limited");
    const report = await arxivReport();
    expect(report?.error).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(report?.error).not.toHaveProperty("retryAfterMs");
  });

  it("waits out a 429 for as long as the Retry-After in front of arXiv says", async () => {
    research.fake.next("arxiv", "rate-limited-retry-after");
    expect(await arxivReport()).toMatchObject({
      status: "failed",
      error: { code: "upstream_rate_limited", retryable: true, retryAfterMs: 20_000 },
    });
  });

  it("refuses a cut feed as malformed XML", async () => {
    research.fake.next("arxiv", "bad-xml");
    const report = await arxivReport();
    expect(report?.error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(report?.error?.message).toMatch(/XML that is not its Atom feed/);
  });

  it("refuses a feed that declares entities before parsing it", async () => {
    research.fake.next("arxiv", "doctype");
    expect((await arxivReport())?.error?.message).toMatch(/declares a DOCTYPE/);
  });

  it("answers no results for an empty feed", async () => {
    research.fake.next("arxiv", "empty");
    expect(await arxivReport()).toMatchObject({ status: "answered", count: 0, total: 0 });
  });
});
