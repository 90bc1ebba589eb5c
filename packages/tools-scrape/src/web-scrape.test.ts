import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScrapeHarness, startScrapeHarness } from "./fake/scrape-harness.js";
import { articlePage, redirect, type Site, startSite } from "./fake/site.js";
import { MAX_PAGE_BYTES } from "./providers/direct-provider.js";

let site: Site;
let scrape: ScrapeHarness;

beforeAll(async () => {
  site = await startSite({
    "/article": articlePage("Tide tables", "The harbour tide rises twice a day.", ["/other"]),
    "/moved": redirect("/article", 301),
    "/plain": { status: 200, headers: { "content-type": "text/plain" }, body: "just text" },
    "/image": { status: 200, headers: { "content-type": "image/png" }, body: "\x89PNG" },
    // A site's 429 "MAY include a Retry-After header" (RFC 6585 §4, https://www.rfc-editor.org/rfc/rfc6585#section-4).
    "/busy": { status: 429, headers: { "retry-after": "3" }, body: "slow down" },
    "/busy-bare": { status: 429, headers: { "content-type": "text/plain" }, body: "slow down" },
    "/to-private": redirect("http://10.1.2.3/secret"),
    "/to-loopback": redirect("http://127.0.0.2/admin"),
    // 1.5 MiB of article: converting it whole would hold the thread for seconds.
    "/huge": articlePage("Huge", "A long read. ".repeat(120_000), []),
    // A MiB of unclosed anchors: a link pattern took 26 s over 300 KB of them.
    "/anchors": `<html><body><p>Anchors.</p>${"<a ".repeat(350_000)}</body></html>`,
  });
  scrape = await startScrapeHarness();
});
afterAll(async () => {
  await scrape.close();
  await site.close();
});

describe("web_scrape, direct", () => {
  it("returns the main content as markdown, fenced as untrusted from the URL that answered", async () => {
    const envelope = await scrape.call("web_scrape", { url: `${site.url}/moved#section` });
    expect(envelope.ok).toBe(true);
    if (!envelope.ok) return;
    expect(envelope.content).toContain("The harbour tide rises twice a day.");
    expect(envelope.content).not.toContain("SITE MENU");
    expect(envelope.content).not.toContain("COPYRIGHT FOOTER");
    expect(envelope.provenance).toEqual({ source: `${site.url}/article`, trusted: false });
    expect(envelope.content).toContain(`source="${site.url}/article"`);
    expect(envelope.data).toMatchObject({
      title: "Tide tables",
      finalUrl: `${site.url}/article`,
      provider: "direct",
    });
    // The fragment never left: the redirect was followed by a second request through egress.
    expect(site.paths().slice(-2)).toEqual(["/moved", "/article"]);
    expect(site.requests.at(-1)?.headers["user-agent"]).toBe("toolreg");
  });

  it("converts at most 1 MiB of a page and says the rest was not read", async () => {
    const envelope = await scrape.call("web_scrape", { url: `${site.url}/huge` });
    expect(envelope).toMatchObject({ ok: true, data: { truncated: true, bytes: MAX_PAGE_BYTES } });
    expect(MAX_PAGE_BYTES).toBe(1024 * 1024);
    expect(envelope.ok && envelope.content).toContain(
      `only the first ${MAX_PAGE_BYTES} bytes of the page were read`,
    );
  });

  it("reads a page of a MiB of unclosed anchors in well under the time a link pattern took", async () => {
    const started = performance.now();
    const envelope = await scrape.call("web_scrape", { url: `${site.url}/anchors` });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(envelope).toMatchObject({ ok: true });
  });

  it("returns text as it is and refuses a binary file", async () => {
    const text = await scrape.call("web_scrape", { url: `${site.url}/plain` });
    expect(text.ok && text.content).toContain("just text");
    const image = await scrape.call("web_scrape", { url: `${site.url}/image` });
    expect(image).toMatchObject({ ok: false, error: { code: "upstream_error" } });
  });

  it("maps the site's status: 404 a final upstream_error, 429 upstream_rate_limited with its wait", async () => {
    const missing = await scrape.call("web_scrape", { url: `${site.url}/nowhere` });
    expect(missing).toMatchObject({ ok: false, error: { code: "upstream_error", retryable: false } });
    const busy = await scrape.call("web_scrape", { url: `${site.url}/busy` });
    expect(busy).toMatchObject({ ok: false, error: { code: "upstream_rate_limited", retryAfterMs: 3000 } });
  });

  it("maps a site's 429 without Retry-After to a retryable rate limit promising no wait", async () => {
    const busy = await scrape.call("web_scrape", { url: `${site.url}/busy-bare` });
    expect(busy).toMatchObject({ ok: false, error: { code: "upstream_rate_limited", retryable: true } });
    if (busy.ok) throw new Error("expected a failure");
    expect(busy.error).not.toHaveProperty("retryAfterMs");
  });

  it.each([
    ["a non-http scheme", "ftp://example.com/file"],
    ["a script URL", "javascript:alert(1)"],
    ["credentials in the URL", "http://user:secret@example.com/"],
    ["a relative URL", "/article"],
    ["an oversize URL", `https://example.com/${"a".repeat(2100)}`],
  ])("refuses %s before any request", async (_, url) => {
    const before = site.requests.length;
    const envelope = await scrape.call("web_scrape", { url });
    expect(envelope).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(site.requests.length).toBe(before);
  });
});

describe("web_scrape, direct, under the operator's policy (public addresses only)", () => {
  let publicOnly: ScrapeHarness;
  let loopbackPinned: ScrapeHarness;
  beforeAll(async () => {
    publicOnly = await startScrapeHarness({}, {});
    // The local site's one address opened, nothing else on loopback or private ranges.
    loopbackPinned = await startScrapeHarness({}, { allowCidrs: ["127.0.0.1/32"] });
  });
  afterAll(async () => {
    await publicOnly.close();
    await loopbackPinned.close();
  });

  it("refuses a private literal as an envelope", async () => {
    const envelope = await publicOnly.call("web_scrape", { url: "http://10.0.0.7/admin" });
    expect(envelope).toMatchObject({ ok: false, error: { code: "egress_refused" } });
  });

  it("refuses a name that resolves to a private address", async () => {
    const before = site.requests.length;
    const envelope = await publicOnly.call("web_scrape", { url: `http://localhost:${site.port}/article` });
    expect(envelope).toMatchObject({ ok: false, error: { code: "egress_refused" } });
    expect(!envelope.ok && envelope.error.message).toMatch(/resolved to 127\.0\.0\.1/);
    expect(site.requests.length).toBe(before);
  });

  it.each([
    ["a private literal", "/to-private"],
    ["another loopback address", "/to-loopback"],
  ])("refuses a redirect to %s", async (_, path) => {
    const envelope = await loopbackPinned.call("web_scrape", { url: `${site.url}${path}` });
    expect(envelope).toMatchObject({ ok: false, error: { code: "egress_refused" } });
  });
});
