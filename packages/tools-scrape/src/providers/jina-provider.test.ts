import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JinaFake, startJinaFake } from "../fake/jina-fake.js";
import { type ScrapeHarness, startScrapeHarness, TEST_KEY } from "../fake/scrape-harness.js";
import type { VendorScenario } from "../fake/vendor-pages.js";

const SITE = "https://blog.example.org";
const PAGES = {
  [`${SITE}/`]: {
    title: "Blog",
    markdown: "Posts: [first](https://blog.example.org/first) and [away](https://elsewhere.example/x).",
  },
  [`${SITE}/first`]: { title: "First post", markdown: "Hello from the first post." },
  [`${SITE}/robots.txt`]: { title: "", markdown: "User-agent: *\nAllow: /\n" },
};
let fake: JinaFake;
let keyed: ScrapeHarness;

beforeAll(async () => {
  fake = await startJinaFake(TEST_KEY, PAGES);
  keyed = await startScrapeHarness({ provider: "jina", credentialRef: "scrape-key", baseUrl: fake.url });
});
afterAll(async () => {
  await keyed.close();
  await fake.close();
});

describe("web_scrape through Jina Reader", () => {
  it("GETs the reader URL for JSON with the key egress injected and returns the page from its final URL", async () => {
    const envelope = await keyed.call("web_scrape", { url: `${SITE}/first` });
    expect(envelope).toMatchObject({
      ok: true,
      provenance: { source: `${SITE}/first`, trusted: false },
      data: { provider: "jina", title: "First post" },
    });
    expect(envelope.ok && envelope.content).toContain("Hello from the first post.");
    const sent = fake.requests.at(-1);
    expect(sent).toMatchObject({ method: "GET", target: `/${SITE}/first` });
    expect(sent?.headers.accept).toBe("application/json");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
  });

  it("works keyless, sending no authorization", async () => {
    const keyless = await startJinaFake(undefined, PAGES);
    const harness = await startScrapeHarness({ provider: "jina", baseUrl: keyless.url });
    try {
      const envelope = await harness.call("web_scrape", { url: `${SITE}/first` });
      expect(envelope.ok).toBe(true);
      expect(keyless.requests.at(-1)?.headers.authorization).toBeUndefined();
    } finally {
      await harness.close();
      await keyless.close();
    }
  });

  it("reports a page the Reader could not read as a final upstream_error", async () => {
    const envelope = await keyed.call("web_scrape", { url: `${SITE}/missing` });
    expect(envelope).toMatchObject({
      ok: false,
      error: { code: "upstream_error", retryable: false, details: { status: 422 } },
    });
  });

  it.each<[VendorScenario, Record<string, unknown>]>([
    ["credits", { code: "upstream_rate_limited", details: { status: 402, limit: "quota" } }],
    [
      "rate-limited",
      { code: "upstream_rate_limited", retryAfterMs: 20_000, details: { status: 429, limit: "rate" } },
    ],
    ["rate-limited-bare", { code: "upstream_rate_limited", details: { status: 429 } }],
    ["server-error", { code: "upstream_error", retryable: true, details: { status: 500 } }],
    ["not-json", { code: "upstream_error", retryable: false }],
    ["wrong-shape", { code: "upstream_error", retryable: false }],
  ])("maps %s to an envelope a model can act on", async (scenario, error) => {
    fake.next(scenario);
    const envelope = await keyed.call("web_scrape", { url: `${SITE}/first` });
    expect(envelope).toMatchObject({ ok: false, error });
    if (scenario === "rate-limited-bare") expect(!envelope.ok && envelope.error.retryAfterMs).toBeUndefined();
  });
});

describe("web_crawl through Jina Reader", () => {
  it("reads a site without robots.txt (Reader's 4xx for it) as allowing all, and Reader failing as disallowing all", async () => {
    const bare = await startJinaFake(undefined, {
      "https://bare.example/": { title: "Bare", markdown: "See [more](https://bare.example/more)." },
      "https://bare.example/more": { title: "More", markdown: "More." },
    });
    const harness = await startScrapeHarness({ provider: "jina", baseUrl: bare.url });
    try {
      const allowed = await harness.call("web_crawl", { url: "https://bare.example/" });
      expect(allowed).toMatchObject({ ok: true, data: { robots: { "https://bare.example": "none" } } });
      expect(allowed.ok ? (allowed.data as { pages: unknown[] }).pages : []).toHaveLength(2);
      bare.next("server-error");
      const refused = await harness.call("web_crawl", { url: "https://bare.example/more" });
      expect(refused).toMatchObject({
        ok: true,
        data: {
          robots: { "https://bare.example": "unreachable" },
          disallowed: ["https://bare.example/more"],
        },
      });
    } finally {
      await harness.close();
      await bare.close();
    }
  });

  it("follows the markdown's links on the same host only", async () => {
    const envelope = await keyed.call("web_crawl", { url: `${SITE}/` });
    expect(envelope.ok).toBe(true);
    if (!envelope.ok) return;
    const data = envelope.data as {
      stoppedBy: string;
      pages: { finalUrl: string }[];
      robots: Record<string, string>;
    };
    expect(data.pages.map((page) => page.finalUrl)).toEqual([`${SITE}/`, `${SITE}/first`]);
    expect(data.robots).toEqual({ [SITE]: "parsed" });
    expect(fake.requests.some((request) => request.target.includes("elsewhere.example"))).toBe(false);
  });
});
