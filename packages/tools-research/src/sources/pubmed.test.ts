/** @module PubMed over the fake: ESearch then ESummary, NCBI's tool and email, its 429, its errors, cut JSON, and the pacing NCBI asks. */
import { describe, expect, it } from "vitest";
import {
  type ResearchHarness,
  sourceReport,
  startResearchHarness,
  useResearchHarness,
} from "../fake/research-harness.js";
import { PUBMED_INTERVAL_MS } from "../research-config.js";

const research = useResearchHarness({
  sources: ["pubmed", "hackernews"],
  contactEmail: "ops@example.org",
  pacingMs: { arxiv: 0, pubmed: 150 },
});

const pubmedReport = () => sourceReport(research, "pubmed");

describe("the PubMed source", () => {
  it("finds PMIDs with ESearch, then summarises them with ESummary, naming the tool and contact each time", async () => {
    await research.search({ query: "CRISPR[tiab] AND 2024[dp]", sources: ["pubmed"], maxResults: 2 });
    const [search, summary] = research.fake.requests;
    expect(search?.path).toBe("/entrez/eutils/esearch.fcgi");
    expect(search?.query).toEqual({
      tool: "toolreg",
      email: "ops@example.org",
      db: "pubmed",
      term: "CRISPR[tiab] AND 2024[dp]",
      retmax: "2",
      retmode: "json",
      sort: "relevance",
    });
    expect(summary?.path).toBe("/entrez/eutils/esummary.fcgi");
    expect(summary?.query).toEqual({
      tool: "toolreg",
      email: "ops@example.org",
      db: "pubmed",
      id: "38123456,37000001",
      retmode: "json",
    });
  });

  it("spaces its two requests as configured, so three a second is never exceeded", async () => {
    const started = Date.now();
    await research.search({ query: "CRISPR", sources: ["pubmed"] });
    const [search, summary] = research.fake.requests;
    expect(search?.path).toBe("/entrez/eutils/esearch.fcgi");
    // ESearch may go at once; ESummary not before 150 ms after ESearch's turn, so not before `started + 150`.
    expect((summary?.at ?? 0) - started).toBeGreaterThanOrEqual(150);
  });

  it("skips ESummary when ESearch found nothing", async () => {
    const envelope = await research.search({ query: "nothing-matches", sources: ["pubmed"] });
    expect(envelope.ok).toBe(true);
    expect(research.fake.requests.map((request) => request.path)).toEqual(["/entrez/eutils/esearch.fcgi"]);
  });

  it("tells NCBI's 429 (no Retry-After) as a rate limit lifting within its one-second window", async () => {
    research.fake.next("pubmed", "rate-limited");
    const report = await pubmedReport();
    expect(report).toMatchObject({
      status: "failed",
      error: { code: "upstream_rate_limited", retryable: true, retryAfterMs: 1000 },
    });
    expect(report?.error?.message).toMatch(/4 requests against a limit of 3 a second/);
  });

  it("waits out a 429 for as long as a Retry-After in front of NCBI says, over its one-second window", async () => {
    research.fake.next("pubmed", "rate-limited-retry-after");
    expect(await pubmedReport()).toMatchObject({
      status: "failed",
      error: { code: "upstream_rate_limited", retryable: true, retryAfterMs: 2000 },
    });
  });

  it("reads ESearch's ERROR as a refused search", async () => {
    research.fake.next("pubmed", "esearch-error");
    expect((await pubmedReport())?.error).toMatchObject({
      code: "upstream_error",
      retryable: false,
      message: expect.stringContaining("Invalid query syntax"),
    });
  });

  it("says so when its JSON is cut off", async () => {
    research.fake.next("pubmed", "bad-json");
    expect((await pubmedReport())?.error?.message).toMatch(
      /PubMed answered 200 with something other than JSON/,
    );
  });
});

describe("PubMed under NCBI's keyless limit of three requests a second", () => {
  const calls = (harness: ResearchHarness) =>
    Promise.all([1, 2, 3].map(() => harness.search({ query: "CRISPR", sources: ["pubmed"] })));
  const rateLimited = (envelopes: Awaited<ReturnType<typeof calls>>) =>
    envelopes.filter((envelope) => !envelope.ok && envelope.error.code === "upstream_rate_limited").length;

  it("is refused when three searches (six requests) go at once unpaced", async () => {
    const unpaced = await startResearchHarness(
      { sources: ["pubmed"], pacingMs: { arxiv: 0, pubmed: 0 } },
      { ncbiPerSecond: 3 },
    );
    try {
      expect(rateLimited(await calls(unpaced))).toBeGreaterThan(0);
    } finally {
      await unpaced.close();
    }
  });

  it("is never refused with the default pacing, which three concurrent searches share", async () => {
    const paced = await startResearchHarness(
      { sources: ["pubmed"], pacingMs: { arxiv: 0, pubmed: PUBMED_INTERVAL_MS } },
      { ncbiPerSecond: 3 },
    );
    try {
      expect(rateLimited(await calls(paced))).toBe(0);
      expect(paced.fake.requests).toHaveLength(6);
    } finally {
      await paced.close();
    }
  });
});
