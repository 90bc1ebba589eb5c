import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ScrapeHarness, startScrapeHarness } from "./fake/scrape-harness.js";
import { articlePage, redirect, robotsTxt, type Site, type SitePages, startSite } from "./fake/site.js";

let scrape: ScrapeHarness;
let site: Site | undefined;

beforeAll(async () => {
  scrape = await startScrapeHarness();
});
afterAll(() => scrape.close());
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function serve(pages: SitePages): Promise<Site> {
  site = await startSite(pages);
  return site;
}

async function crawl(input: Record<string, unknown>) {
  const envelope = await scrape.call("web_crawl", input);
  if (!envelope.ok) throw new Error(`crawl failed: ${envelope.error.code}: ${envelope.error.message}`);
  const data = envelope.data as {
    stoppedBy: string;
    bytes: number;
    pages: { finalUrl: string; depth: number; provenance: unknown }[];
    disallowed: string[];
    failures: { url: string; code: string }[];
    robots: Record<string, string>;
    requests: number;
    host: string;
  };
  return { envelope, data, read: data.pages.map((page) => new URL(page.finalUrl).pathname) };
}

/** A chain / → /d1 → /d2 → /d3, each page also linking a sibling. */
const chain: SitePages = {
  "/robots.txt": robotsTxt("User-agent: *\nAllow: /\n"),
  "/": articlePage("Home", "Start here.", ["/d1", "/s0"]),
  "/s0": articlePage("Sibling", "A sibling page.", []),
  "/d1": articlePage("One", "One down.", ["/d2"]),
  "/d2": articlePage("Two", "Two down.", ["/d3"]),
  "/d3": articlePage("Three", "Three down.", []),
};

describe("web_crawl bounds", () => {
  it("reads every page in scope and says it is done", async () => {
    const site = await serve(chain);
    const { data, read, envelope } = await crawl({ url: `${site.url}/`, maxDepth: 3 });
    expect(data.stoppedBy).toBe("done");
    expect(read).toEqual(["/", "/d1", "/s0", "/d2", "/d3"]);
    expect(envelope.ok && envelope.content).toContain("stopped by done");
    expect(data.pages[0]?.provenance).toEqual({ source: `${site.url}/`, trusted: false });
    expect(envelope.ok && envelope.content).toContain(`=== page 2 of 5 · source: ${site.url}/d1 ===`);
  });

  it("stops at maxPages", async () => {
    const site = await serve(chain);
    const { data, read, envelope } = await crawl({ url: `${site.url}/`, maxPages: 2, maxDepth: 3 });
    expect(data.stoppedBy).toBe("pages");
    expect(read).toEqual(["/", "/d1"]);
    expect(envelope.ok && envelope.content).toContain("stopped by pages");
  });

  it("stops at maxDepth", async () => {
    const site = await serve(chain);
    const { data, read } = await crawl({ url: `${site.url}/`, maxDepth: 1 });
    expect(data.stoppedBy).toBe("depth");
    expect(read).toEqual(["/", "/d1", "/s0"]);
    expect(data.pages.map((page) => page.depth)).toEqual([0, 1, 1]);
    expect(site.paths()).not.toContain("/d2");
  });

  it("stops at maxBytes", async () => {
    const site = await serve(chain);
    const { data, read } = await crawl({ url: `${site.url}/`, maxDepth: 3, maxBytes: 1500 });
    expect(data.stoppedBy).toBe("bytes");
    expect(read.length).toBeLessThan(5);
    expect(data.bytes).toBeLessThanOrEqual(1500);
  });

  it("stops when its time is up", async () => {
    const slow = (title: string, links: string[]) => ({
      status: 200,
      headers: { "content-type": "text/html" },
      body: articlePage(title, "Slowly.", links),
      delayMs: 400,
    });
    const site = await serve({
      "/": slow("Home", ["/a", "/b", "/c", "/d"]),
      "/a": slow("A", []),
      "/b": slow("B", []),
      "/c": slow("C", []),
      "/d": slow("D", []),
    });
    const started = Date.now();
    const { data, read } = await crawl({ url: `${site.url}/`, maxSeconds: 1 });
    expect(data.stoppedBy).toBe("time");
    expect(read.length).toBeLessThan(5);
    expect(Date.now() - started).toBeLessThan(2500);
  });
});

describe("web_crawl and robots.txt", () => {
  it("honours the longest match: Disallow /a, Allow /a/b lets /a/b/c through and not /a/x", async () => {
    const site = await serve({
      "/robots.txt": robotsTxt("User-agent: *\nDisallow: /a\nAllow: /a/b\n"),
      "/": articlePage("Home", "Links below.", ["/a/b/c", "/a/x", "/open"]),
      "/a/b/c": articlePage("Allowed", "Allowed by the longer rule.", []),
      "/a/x": articlePage("Forbidden", "Should not be read.", []),
      "/open": articlePage("Open", "Open page.", []),
    });
    const { data, read, envelope } = await crawl({ url: `${site.url}/` });
    expect(read).toEqual(["/", "/a/b/c", "/open"]);
    expect(data.disallowed).toEqual([`${site.url}/a/x`]);
    expect(site.paths()).not.toContain("/a/x");
    expect(site.paths().filter((path) => path === "/robots.txt")).toHaveLength(1);
    expect(envelope.ok && envelope.content).toContain(
      `Disallowed by robots.txt, not read:\n- ${site.url}/a/x`,
    );
  });

  it("matches the configured user-agent token's group", async () => {
    const site = await serve({
      "/robots.txt": robotsTxt("User-agent: toolreg\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n"),
      "/": articlePage("Home", "Links below.", ["/private", "/public"]),
      "/public": articlePage("Public", "Public page.", []),
    });
    const { read, data } = await crawl({ url: `${site.url}/` });
    expect(read).toEqual(["/", "/public"]);
    expect(data.disallowed).toEqual([`${site.url}/private`]);
  });

  it("treats a 4xx robots.txt as allowing all and a 5xx as disallowing all", async () => {
    const missing = await serve({
      "/": articlePage("Home", "No robots file.", ["/next"]),
      "/next": articlePage("Next", "Next.", []),
    });
    const allowed = await crawl({ url: `${missing.url}/` });
    expect(allowed.read).toEqual(["/", "/next"]);
    expect(allowed.data.robots).toEqual({ [missing.url]: "none" });
    await missing.close();

    const failing = await serve({
      "/robots.txt": robotsTxt("oops", 503),
      "/": articlePage("Home", "Robots failing.", ["/next"]),
    });
    const refused = await crawl({ url: `${failing.url}/` });
    expect(refused.read).toEqual([]);
    expect(refused.data.disallowed).toEqual([`${failing.url}/`]);
    expect(refused.data.robots).toEqual({ [failing.url]: "unreachable" });
    expect(failing.paths()).toEqual(["/robots.txt"]);
  });
});

describe("web_crawl refusals", () => {
  it("treats a 429 robots.txt as a server error, disallowing all", async () => {
    const busy = await serve({
      "/robots.txt": robotsTxt("slow down", 429),
      "/": articlePage("Home", "Busy.", []),
    });
    const { read, data } = await crawl({ url: `${busy.url}/` });
    expect(read).toEqual([]);
    expect(data.robots).toEqual({ [busy.url]: "unreachable" });
  });

  it("fails as egress_refused when the start URL is refused, a private literal or a name resolving privately", async () => {
    const publicOnly = await startScrapeHarness({}, {});
    const site = await serve(chain);
    try {
      for (const url of ["http://10.0.0.7/", `http://localhost:${site.port}/`]) {
        const envelope = await publicOnly.call("web_crawl", { url });
        expect(envelope).toMatchObject({ ok: false, error: { code: "egress_refused" } });
      }
      expect(site.requests).toHaveLength(0);
    } finally {
      await publicOnly.close();
    }
  });
});

describe("web_crawl links", () => {
  it("follows http(s) links on the same host once, without fragments, under the path prefix", async () => {
    const site = await serve({
      "/docs/": articlePage("Docs", "Docs home.", [
        "/docs/a#top",
        "/docs/a",
        "/docs/a?x=1#frag",
        "/blog/post",
        "mailto:someone@example.com",
        "javascript:void(0)",
        "http://other.example/docs/x",
        "/docs/manual.pdf",
        "/docs/logo.PNG",
      ]),
      "/docs/a": articlePage("A", "Page A.", ["/docs/"]),
      "/docs/a?x=1": articlePage("A1", "Page A with a query.", []),
    });
    const { read, data } = await crawl({ url: `${site.url}/docs/`, pathPrefix: "/docs/" });
    expect(data.pages.map((page) => page.finalUrl.slice(site.url.length))).toEqual([
      "/docs/",
      "/docs/a",
      "/docs/a?x=1",
    ]);
    expect(read).not.toContain("/blog/post");
    expect(site.paths()).not.toContain("/blog/post");
    expect(site.paths().filter((path) => /\.(pdf|png)$/i.test(path))).toEqual([]);
    expect(data.stoppedBy).toBe("done");
  });

  it("refuses hostile bounds and URLs before any request", async () => {
    const site = await serve(chain);
    for (const input of [
      { url: `${site.url}/`, maxPages: 51 },
      { url: `${site.url}/`, maxDepth: 4 },
      { url: `${site.url}/`, maxSeconds: 61 },
      { url: `${site.url}/`, maxBytes: 100 * 1024 * 1024 },
      { url: `${site.url}/`, pathPrefix: "docs" },
      { url: "file:///etc/passwd" },
    ]) {
      const envelope = await scrape.call("web_crawl", input);
      expect(envelope).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    }
    expect(site.requests).toHaveLength(0);
  });

  it("needs a person's approval for every crawl", async () => {
    const site = await serve(chain);
    const parked = await scrape.seam.call(scrape.context(), "web_crawl", { url: `${site.url}/` });
    expect(parked).toMatchObject({ ok: false, error: { code: "approval_required" } });
    expect(site.requests).toHaveLength(0);
  });
});

/** A page holding only links, small enough to leave room in a 1 KiB budget. */
const linkPage = (links: readonly string[]) =>
  `<html><body>${links.map((href) => `<a href="${href}">${href}</a>`).join(" ")}</body></html>`;

describe("web_crawl spends its bounds on every request", () => {
  it("counts a failed page against maxPages: 2,000 broken links with maxPages 2 make 2 requests", async () => {
    const links = Array.from({ length: 2000 }, (_, index) => `/gone${index}`);
    const site = await serve({ "/robots.txt": robotsTxt(""), "/": linkPage(links) });
    const { data } = await crawl({ url: `${site.url}/`, maxPages: 2, maxDepth: 1 });
    expect(site.paths().filter((path) => path !== "/robots.txt")).toEqual(["/", "/gone0"]);
    expect(data).toMatchObject({ stoppedBy: "pages", requests: 2 });
    expect(data.failures).toHaveLength(1);
  });

  it("counts a failed page's bytes against maxBytes", async () => {
    const broken = { status: 404, headers: { "content-type": "text/html" }, body: "x".repeat(600) };
    const links = Array.from({ length: 10 }, (_, index) => `/gone${index}`);
    const pages: SitePages = { "/robots.txt": robotsTxt(""), "/": linkPage(links) };
    for (const link of links) pages[link] = broken;
    const site = await serve(pages);
    const { data } = await crawl({ url: `${site.url}/`, maxPages: 50, maxDepth: 1, maxBytes: 1024 });
    expect(data.stoppedBy).toBe("bytes");
    // The start page and two 404s of 600 bytes pass 1 KiB; nothing more is asked for.
    expect(data.requests).toBe(3);
    expect(data.bytes).toBeGreaterThanOrEqual(1024);
  });
});

describe("web_crawl and redirects", () => {
  it("crawls the host the start page redirected to (example.com to www.example.com)", async () => {
    const www = await startSite({
      "/robots.txt": robotsTxt(""),
      "/": articlePage("Home", "The real home.", ["/a", "/b"]),
      "/a": articlePage("A", "Page a.", []),
      "/b": articlePage("B", "Page b.", []),
    });
    try {
      const apex = await serve({ "/robots.txt": robotsTxt(""), "/": redirect(`${www.url}/`, 301) });
      const { data, envelope } = await crawl({ url: `${apex.url}/` });
      expect(data.pages.map((page) => page.finalUrl)).toEqual([
        `${www.url}/`,
        `${www.url}/a`,
        `${www.url}/b`,
      ]);
      expect(data).toMatchObject({ stoppedBy: "done", host: new URL(www.url).host });
      expect(envelope.ok && envelope.content).toContain(`the start page moved to ${new URL(www.url).host}`);
    } finally {
      await www.close();
    }
  });

  it("reads a page once when a redirect leads to it again", async () => {
    const site = await serve({
      "/robots.txt": robotsTxt(""),
      "/docs": redirect("/docs/", 301),
      "/docs/": articlePage("Docs", "The docs.", ["/docs/", "/docs/a", "/docs/again"]),
      "/docs/a": articlePage("A", "Page a.", []),
      "/docs/again": redirect("/docs/"),
    });
    const { data, read } = await crawl({ url: `${site.url}/docs`, pathPrefix: "/docs" });
    expect(read).toEqual(["/docs/", "/docs/a"]);
    expect(site.paths().filter((path) => path === "/docs/")).toHaveLength(2); // from /docs and /docs/again
    expect(data.requests).toBe(3);
  });

  it("does not keep a page a same-host redirect took to a path robots.txt disallows", async () => {
    const site = await serve({
      "/robots.txt": robotsTxt("User-agent: *\nDisallow: /private\n"),
      "/": articlePage("Home", "Home.", ["/go"]),
      "/go": redirect("/private/page"),
      "/private/page": articlePage("Private", "Not for crawlers.", []),
    });
    const { data, read } = await crawl({ url: `${site.url}/` });
    expect(read).toEqual(["/"]);
    expect(data.disallowed).toEqual([`${site.url}/private/page`]);
  });
});
