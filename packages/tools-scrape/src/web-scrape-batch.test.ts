import type { ToolContext } from "toolreg/toolkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScrapeHarness, startScrapeHarness } from "./fake/scrape-harness.js";
import { articlePage, type Site, startSite } from "./fake/site.js";
import type { ScrapeProvider } from "./scrape-provider.js";
import { BATCH_CONCURRENCY, MAX_BATCH_URLS, readAll } from "./web-scrape-batch.js";

let site: Site;
let scrape: ScrapeHarness;

const slow = (title: string) => ({
  status: 200,
  headers: { "content-type": "text/html" },
  body: articlePage(title, `The page called ${title}.`),
  delayMs: 60,
});

beforeAll(async () => {
  site = await startSite(
    Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`/p${index}`, slow(`Page ${index}`)])),
  );
  scrape = await startScrapeHarness();
});
afterAll(async () => {
  await scrape.close();
  await site.close();
});

describe("web_scrape_batch", () => {
  it("reads each page, labels each with its source, and reports each failure beside the others", async () => {
    const urls = [
      `${site.url}/p0`,
      `${site.url}/missing`,
      `${site.url}/p1`,
      "http://10.0.0.9/x",
      `${site.url}/p0#again`,
    ];
    const envelope = await scrape.call("web_scrape_batch", { urls });
    expect(envelope.ok).toBe(true);
    if (!envelope.ok) return;
    expect(envelope.content).toContain("2 of 4 pages read; 2 failed.");
    expect(envelope.content).toContain(`=== page 1 of 2 · source: ${site.url}/p0 ===`);
    expect(envelope.content).toContain(`=== page 2 of 2 · source: ${site.url}/p1 ===`);
    expect(envelope.content).toContain("The page called Page 1.");
    expect(envelope.provenance).toMatchObject({ trusted: false });
    const results = (envelope.data as { results: { url: string; ok: boolean; error?: { code: string } }[] })
      .results;
    expect(
      results.map((result) => [result.url.replace(site.url, ""), result.ok, result.error?.code]),
    ).toEqual([
      ["/p0", true, undefined],
      ["/missing", false, "upstream_error"],
      ["/p1", true, undefined],
      ["http://10.0.0.9/x", false, "egress_refused"],
    ]);
  });

  it(`reads at most ${BATCH_CONCURRENCY} pages at once`, async () => {
    const urls = Array.from({ length: 8 }, (_, index) => `${site.url}/p${index}`);
    const envelope = await scrape.call("web_scrape_batch", { urls });
    expect(envelope.ok).toBe(true);
    expect(site.peakInFlight).toBeGreaterThan(1);
    expect(site.peakInFlight).toBeLessThanOrEqual(BATCH_CONCURRENCY);
  });

  it("refuses an oversize or hostile list before any request", async () => {
    const before = site.requests.length;
    const tooMany = Array.from({ length: MAX_BATCH_URLS + 1 }, (_, index) => `${site.url}/p${index % 8}`);
    for (const urls of [
      tooMany,
      [],
      [`${site.url}/p0`, "gopher://example.com/"],
      [`http://a:b@127.0.0.1:${site.port}/p0`],
    ]) {
      const envelope = await scrape.call("web_scrape_batch", { urls });
      expect(envelope).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    }
    expect(site.requests.length).toBe(before);
  });
});

describe("readAll", () => {
  it("starts no further page once one worker fails with an error that is no page's failure", async () => {
    const asked: string[] = [];
    // A provider with a fault: its first page throws a TypeError, not a ToolFailure; the others take a while.
    const faulty: ScrapeProvider = {
      name: "direct",
      async scrape(url) {
        asked.push(url);
        await new Promise((resolve) => setTimeout(resolve, url.endsWith("/0") ? 5 : 40));
        if (url.endsWith("/0")) throw new TypeError("a bug");
        return { url, finalUrl: url, title: undefined, markdown: "", links: [], bytes: 0, truncated: false };
      },
      robots: async () => ({ status: 404, text: "" }),
    };
    const urls = Array.from({ length: MAX_BATCH_URLS }, (_, index) => `https://site.example/${index}`);
    const context = { signal: new AbortController().signal } as ToolContext;
    await expect(readAll(urls, faulty, context)).rejects.toThrow(TypeError);
    await new Promise((resolve) => setTimeout(resolve, 150));
    // The three started at once finish; none starts after the fault.
    expect(asked).toHaveLength(BATCH_CONCURRENCY);
  });
});
