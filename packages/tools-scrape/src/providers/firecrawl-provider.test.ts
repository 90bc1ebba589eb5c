import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FirecrawlFake, startFirecrawlFake } from "../fake/firecrawl-fake.js";
import { type ScrapeHarness, startScrapeHarness, TEST_KEY } from "../fake/scrape-harness.js";
import type { VendorScenario } from "../fake/vendor-pages.js";
import { plainTextOf } from "./firecrawl-provider.js";

const SITE = "https://127.0.0.2"; // a loopback literal: egress checks a page URL before Firecrawl gets it, with no DNS here
let fake: FirecrawlFake;
let scrape: ScrapeHarness;

beforeAll(async () => {
  fake = await startFirecrawlFake(TEST_KEY, {
    [`${SITE}/`]: {
      title: "Docs",
      markdown: "# Docs\n\nSee [guide](https://127.0.0.2/guide).",
      links: [`${SITE}/guide`, `${SITE}/private/x`],
    },
    [`${SITE}/guide`]: { title: "Guide", markdown: "The guide.", finalUrl: `${SITE}/guide/` },
    [`${SITE}/private/x`]: { title: "Private", markdown: "Secret." },
    [`${SITE}/big`]: { title: "Big", markdown: "Index.", links: [`${SITE}/big/long`] },
    [`${SITE}/big/long`]: { title: "Long", markdown: "word ".repeat(1000) },
    // Firecrawl followed the site's redirect to the metadata address itself.
    [`${SITE}/moved`]: { title: "Metadata", markdown: "iam/", finalUrl: "http://169.254.169.254/latest/" },
    [`${SITE}/robots.txt`]: { title: "", markdown: "User-agent: *\nDisallow: /private\n" },
  });
  scrape = await startScrapeHarness({
    provider: "firecrawl",
    credentialRef: "scrape-key",
    baseUrl: fake.url,
  });
});
afterAll(async () => {
  await scrape.close();
  await fake.close();
});

describe("web_scrape through Firecrawl", () => {
  it("posts /v2/scrape with the key egress injected and returns the page fenced from its final URL", async () => {
    const envelope = await scrape.call("web_scrape", { url: `${SITE}/guide` });
    expect(envelope).toMatchObject({
      ok: true,
      provenance: { source: `${SITE}/guide/`, trusted: false },
      data: { provider: "firecrawl", title: "Guide" },
    });
    expect(envelope.ok && envelope.content).toContain("The guide.");
    const sent = fake.requests.at(-1);
    expect(sent).toMatchObject({ method: "POST", path: "/v2/scrape" });
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      url: `${SITE}/guide`,
      formats: ["markdown", "links"],
      onlyMainContent: true,
    });
  });

  it("reports the site's own error status that Firecrawl passes on", async () => {
    const envelope = await scrape.call("web_scrape", { url: `${SITE}/gone` });
    expect(envelope).toMatchObject({ ok: false, error: { code: "upstream_error", retryable: false } });
    expect(!envelope.ok && envelope.error.message).toContain("answered 404");
  });

  it.each<[VendorScenario, Record<string, unknown>]>([
    ["credits", { code: "upstream_error", retryable: false, details: { status: 402, limit: "credits" } }],
    [
      "rate-limited",
      { code: "upstream_rate_limited", retryAfterMs: 7000, details: { status: 429, limit: "rate" } },
    ],
    ["rate-limited-bare", { code: "upstream_rate_limited", details: { status: 429 } }],
    ["unauthorized", { code: "auth_required" }],
    ["server-error", { code: "upstream_error", retryable: true, details: { status: 500 } }],
    ["not-json", { code: "upstream_error", retryable: false }],
    ["wrong-shape", { code: "upstream_error", retryable: false }],
  ])("maps %s to an envelope a model can act on", async (scenario, error) => {
    fake.next(scenario);
    const envelope = await scrape.call("web_scrape", { url: `${SITE}/guide` });
    expect(envelope).toMatchObject({ ok: false, error });
    if (scenario === "rate-limited-bare") expect(!envelope.ok && envelope.error.retryAfterMs).toBeUndefined();
    if (scenario === "credits") expect(!envelope.ok && envelope.error.message).toContain("no credits left");
  });

  it("hands Firecrawl no page the egress policy refuses, nor returns one that redirected there", async () => {
    const before = fake.requests.length;
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/admin"]) {
      const envelope = await scrape.call("web_scrape", { url });
      expect(envelope).toMatchObject({ ok: false, error: { code: "egress_refused", retryable: false } });
      expect(!envelope.ok && envelope.error.message).toContain("not handed to Firecrawl");
      const crawled = await scrape.call("web_crawl", { url });
      expect(crawled).toMatchObject({ ok: false, error: { code: "egress_refused" } });
    }
    // Nothing was sent to Firecrawl for them, neither the page nor its robots.txt.
    expect(fake.requests.length).toBe(before);
    const moved = await scrape.call("web_scrape", { url: `${SITE}/moved` });
    expect(moved).toMatchObject({ ok: false, error: { code: "egress_refused" } });
    expect(!moved.ok && JSON.stringify(moved.error)).not.toContain("Metadata");
  });
});

describe("web_crawl through Firecrawl", () => {
  it("walks pages with per-page scrapes and honours robots.txt read through Firecrawl", async () => {
    const envelope = await scrape.call("web_crawl", { url: `${SITE}/` });
    expect(envelope.ok).toBe(true);
    if (!envelope.ok) return;
    const data = envelope.data as { stoppedBy: string; disallowed: string[]; pages: { finalUrl: string }[] };
    expect(data.pages.map((page) => page.finalUrl)).toEqual([`${SITE}/`, `${SITE}/guide/`]);
    expect(data.disallowed).toEqual([`${SITE}/private/x`]);
    expect(data.stoppedBy).toBe("done");
  });
});

describe("web_crawl's byte budget through Firecrawl", () => {
  it("reads no answer past the bytes the crawl has left, and stops by bytes", async () => {
    const envelope = await scrape.call("web_crawl", { url: `${SITE}/big`, maxBytes: 1024 });
    expect(envelope.ok).toBe(true);
    if (!envelope.ok) return;
    const data = envelope.data as { stoppedBy: string; bytes: number; failures: { message: string }[] };
    expect(data.stoppedBy).toBe("bytes");
    expect(data.bytes).toBeLessThanOrEqual(1024);
    expect(data.failures[0]?.message).toContain("byte budget");
  });
});

describe("plainTextOf", () => {
  it("unwraps the lone <pre> a browser engine renders a text file in, decoding its entities", () => {
    const rendered = `<!DOCTYPE html><html><head></head><body><pre style="white-space: pre-wrap;">User-agent: *\nDisallow: /a?b=1&amp;c=&lt;x&gt; &#35;&#x41;</pre></body></html>`;
    expect(plainTextOf(rendered)).toBe("User-agent: *\nDisallow: /a?b=1&c=<x> #A");
    const twoBlocks = "<html><body><pre>a</pre><pre>b</pre></body></html>";
    expect(plainTextOf(twoBlocks)).toBe(twoBlocks);
    expect(plainTextOf("User-agent: *\nDisallow: /<pre>")).toBe("User-agent: *\nDisallow: /<pre>");
  });
});
