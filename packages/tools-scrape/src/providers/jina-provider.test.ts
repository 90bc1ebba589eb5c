import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JinaFake, startJinaFake } from "../fake/jina-fake.js";
import { type ScrapeHarness, startScrapeHarness, TEST_KEY } from "../fake/scrape-harness.js";
import type { VendorScenario } from "../fake/vendor-pages.js";

const SITE = "https://127.0.0.3"; // a loopback literal: egress checks a page URL before Reader gets it, with no DNS here
const PAGES = {
  [`${SITE}/`]: {
    title: "Blog",
    markdown: "Posts: [first](https://127.0.0.3/first) and [away](https://elsewhere.example/x).",
  },
  [`${SITE}/first`]: { title: "First post", markdown: "Hello from the first post." },
  [`${SITE}/robots.txt`]: { title: "", markdown: "User-agent: *\nAllow: /\n" },
  // Reader followed the site's redirect to the metadata address itself.
  [`${SITE}/moved`]: { title: "Metadata", markdown: "iam/", finalUrl: "http://169.254.169.254/latest/" },
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

  it("hands Reader no page the egress policy refuses, nor returns one that redirected there", async () => {
    const before = fake.requests.length;
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://192.168.1.1/"]) {
      const envelope = await keyed.call("web_scrape", { url });
      expect(envelope).toMatchObject({ ok: false, error: { code: "egress_refused", retryable: false } });
      expect(!envelope.ok && envelope.error.message).toContain("not handed to Jina Reader");
      const crawled = await keyed.call("web_crawl", { url });
      expect(crawled).toMatchObject({ ok: false, error: { code: "egress_refused" } });
    }
    expect(fake.requests.length).toBe(before);
    const moved = await keyed.call("web_scrape", { url: `${SITE}/moved` });
    expect(moved).toMatchObject({ ok: false, error: { code: "egress_refused" } });
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
    expect(!envelope.ok && envelope.error.message).toContain("Failed to goto");
  });

  it.each<[VendorScenario, Record<string, unknown>]>([
    ["credits", { code: "upstream_error", retryable: false, details: { status: 402, limit: "credits" } }],
    [
      "rate-limited",
      { code: "upstream_rate_limited", retryAfterMs: 20_000, details: { status: 429, limit: "rate" } },
    ],
    ["rate-limited-bare", { code: "upstream_rate_limited", details: { status: 429 } }],
    ["unauthorized", { code: "auth_required", retryable: false }],
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
  it("reads robots.txt Reader could not reach (its 422 'Failed to goto') or Reader failing as disallowing all, a site's 404 page as allowing all", async () => {
    const bare = await startJinaFake(undefined, {
      "https://127.0.0.4/": { title: "Bare", markdown: "See [more](https://127.0.0.4/more)." },
      "https://127.0.0.4/more": { title: "More", markdown: "More." },
      // The site answered 404: Reader's browser navigated and rendered the error page.
      "https://127.0.0.5/robots.txt": { title: "Not Found", markdown: "Not Found", statusCode: 404 },
      "https://127.0.0.5/": { title: "Has a 404", markdown: "See [more](https://127.0.0.5/more)." },
      "https://127.0.0.5/more": { title: "More", markdown: "More." },
    });
    const harness = await startScrapeHarness({ provider: "jina", baseUrl: bare.url });
    try {
      const unreachable = await harness.call("web_crawl", { url: "https://127.0.0.4/more" });
      expect(unreachable).toMatchObject({
        ok: true,
        data: { robots: { "https://127.0.0.4": "unreachable" }, disallowed: ["https://127.0.0.4/more"] },
      });
      const allowed = await harness.call("web_crawl", { url: "https://127.0.0.5/" });
      expect(allowed).toMatchObject({ ok: true, data: { robots: { "https://127.0.0.5": "parsed" } } });
      expect(allowed.ok ? (allowed.data as { pages: unknown[] }).pages : []).toHaveLength(2);
      bare.next("server-error");
      const refused = await harness.call("web_crawl", { url: "https://127.0.0.5/more" });
      expect(refused).toMatchObject({
        ok: true,
        data: {
          robots: { "https://127.0.0.5": "unreachable" },
          disallowed: ["https://127.0.0.5/more"],
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
