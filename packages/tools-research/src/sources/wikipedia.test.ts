/** @module Wikipedia over the fake: the Action API request, MediaWiki's 200-with-error answers, its rate limits with and without Retry-After, a non-JSON page, JSON of another shape. */
import { describe, expect, it } from "vitest";
import { sourceReport, useResearchHarness } from "../fake/research-harness.js";
import type { ResearchOutput } from "../research-results.js";
import { articlePath } from "./wikipedia.js";

const research = useResearchHarness({
  sources: ["wikipedia", "hackernews"],
  contactEmail: "ops@example.org",
});

const wikipediaReport = () => sourceReport(research, "wikipedia");

describe("the Wikipedia source", () => {
  it("sends list=search in formatversion 2 with a User-Agent naming the deployment's contact", async () => {
    await research.search({ query: "CRISPR", sources: ["wikipedia"], maxResults: 5 });
    const [sent] = research.fake.requests;
    expect(sent?.path).toBe("/wikipedia/en/w/api.php");
    expect(sent?.query).toEqual({
      action: "query",
      list: "search",
      srsearch: "CRISPR",
      srlimit: "5",
      srprop: "snippet|timestamp",
      srinfo: "totalhits",
      format: "json",
      formatversion: "2",
    });
    expect(sent?.headers["user-agent"]).toBe("toolreg-tools-research/0.1.0 (mailto:ops@example.org)");
  });

  it("orders by last edit when asked for newest first", async () => {
    await research.search({ query: "CRISPR", sources: ["wikipedia"], sort: "date" });
    expect(research.fake.requests[0]?.query.srsort).toBe("last_edit_desc");
  });

  it("reads MediaWiki's error sent with HTTP 200 as a failure, not as no results", async () => {
    research.fake.next("wikipedia", "mediawiki-error");
    expect(await wikipediaReport()).toMatchObject({
      status: "failed",
      error: {
        code: "upstream_error",
        retryable: false,
        message: expect.stringContaining("srsearch-text-disabled"),
      },
    });
  });

  it("tells a lagged database (maxlag) as retryable", async () => {
    research.fake.next("wikipedia", "maxlag");
    expect(await wikipediaReport()).toMatchObject({
      status: "failed",
      error: { code: "upstream_error", retryable: true },
    });
  });

  it("waits out Wikimedia's 429 for as long as its Retry-After says", async () => {
    research.fake.next("wikipedia", "rate-limited");
    expect(await wikipediaReport()).toMatchObject({
      status: "failed",
      error: { code: "upstream_rate_limited", retryable: true, retryAfterMs: 30_000 },
    });
  });

  it("tells a 429 without Retry-After as a rate limit, promising no wait it was not given", async () => {
    research.fake.next("wikipedia", "rate-limited-bare");
    const report = await wikipediaReport();
    expect(report?.error).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(report?.error).not.toHaveProperty("retryAfterMs");
  });

  it("refuses JSON that is not a search answer as a final failure, naming what is missing", async () => {
    research.fake.next("wikipedia", "wrong-shape");
    const report = await wikipediaReport();
    expect(report?.error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(report?.error).not.toHaveProperty("retryAfterMs");
    expect(report?.error?.message).toMatch(/JSON that is not its documented response \(query:/);
  });

  it("says so when an HTML page comes back instead of JSON", async () => {
    research.fake.next("wikipedia", "not-json");
    const report = await wikipediaReport();
    expect(report?.error?.message).toMatch(/other than JSON \(content type text\/html\)/);
  });

  it("answers no results, not an error, when nothing matches", async () => {
    const envelope = await research.search({ query: "nothing-matches", sources: ["wikipedia"] });
    if (!envelope.ok) throw new Error(envelope.error.message);
    expect((envelope.data as ResearchOutput).sources[0]).toMatchObject({
      status: "answered",
      count: 0,
      total: 0,
    });
    expect(envelope.content).toContain("Wikipedia: no results.");
  });

  it.each([
    ["AC/DC", "AC/DC"],
    ["C++", "C%2B%2B"],
    ["Talk:Main Page", "Talk:Main_Page"],
    ["What? Why#not", "What%3F_Why%23not"],
    ["Zürich", "Z%C3%BCrich"],
  ])("links the article %s as /wiki/%s", (title, path) => {
    expect(articlePath(title)).toBe(path);
  });
});
