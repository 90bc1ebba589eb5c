/**
 * @module The crawler: breadth first from a start URL through the configured provider, within a scope,
 * bounded by pages, depth, bytes and a wall-clock deadline, reporting which bound stopped it. Every fetch
 * (robots.txt and pages, their redirects too) is the provider's, so it goes through egress. Pages are read
 * one at a time: a crawl is a load on someone else's server, and politeness costs only time.
 */
import { type ToolContext, ToolFailure } from "toolreg/toolkit";
import type { ScrapedPage, ScrapeProvider } from "../scrape-provider.js";
import { type CrawlScope, inScope, normaliseLink } from "./crawl-scope.js";
import { RobotsRules } from "./robots-rules.js";

/** No page is started with less time than this left: it could not be read, only timed out. */
const LAST_START_MS = 100;

export type StoppedBy = "pages" | "depth" | "bytes" | "time" | "done";

export interface CrawlBounds {
  /** Pages requested, a page that failed among them. */
  maxPages: number;
  /** Links followed from the start page: 0 reads the start page alone. */
  maxDepth: number;
  /** Bytes read over the whole crawl (page bodies, or the provider's answers), failed pages' too. */
  maxBytes: number;
  /** Epoch milliseconds after which no further page is started. */
  deadline: number;
}

export interface CrawledPage extends ScrapedPage {
  depth: number;
}

export interface CrawlFailure {
  url: string;
  code: string;
  message: string;
}

export interface CrawlReport {
  pages: CrawledPage[];
  failures: CrawlFailure[];
  /** URLs robots.txt disallowed, not fetched. */
  disallowed: string[];
  stoppedBy: StoppedBy;
  bytes: number;
  /** Pages requested, failed ones included. */
  requests: number;
  /** The host crawled: the start page's, or the one it redirected to (example.com to www.example.com). */
  host: string;
  robots: Record<string, string>;
}

export interface CrawlRequest {
  start: string;
  scope: CrawlScope;
  bounds: CrawlBounds;
  provider: ScrapeProvider;
  userAgent: string;
  context: ToolContext;
  now?: () => number;
}

export async function crawl(request: CrawlRequest): Promise<CrawlReport> {
  const { bounds, provider } = request;
  let scope = request.scope;
  const now = request.now ?? Date.now;
  const robots = new RobotsRules(provider, request.userAgent);
  const queue: { url: string; depth: number }[] = [{ url: request.start, depth: 0 }];
  const seen = new Set([request.start]);
  /** The final URLs of the pages kept: a page reached again through a redirect is not kept twice. */
  const kept = new Set<string>();
  const meter = { bytes: 0 };
  const report: CrawlReport = {
    pages: [],
    failures: [],
    disallowed: [],
    stoppedBy: "done",
    bytes: 0,
    requests: 0,
    host: scope.host,
    robots: {},
  };
  let cutByDepth = false;
  // The page in flight gets the time left, not the call's whole deadline.
  const pageContext = (): ToolContext => ({
    ...request.context,
    deadline: Math.min(request.context.deadline, bounds.deadline),
  });

  for (;;) {
    const next = queue.shift();
    if (next === undefined) {
      report.stoppedBy = cutByDepth ? "depth" : "done";
      break;
    }
    if (now() >= bounds.deadline - LAST_START_MS) {
      report.stoppedBy = "time";
      break;
    }
    // Requests, not pages kept: a site of broken links must not be walked whole.
    if (report.requests >= bounds.maxPages) {
      report.stoppedBy = "pages";
      break;
    }
    if (meter.bytes >= bounds.maxBytes) {
      report.stoppedBy = "bytes";
      break;
    }
    request.context.signal.throwIfAborted();
    let page: ScrapedPage;
    let finalUrl: string;
    try {
      if ((await robots.verdict(next.url, pageContext())) === "disallowed") {
        report.disallowed.push(next.url);
        continue;
      }
      report.requests++;
      page = await provider.scrape(next.url, pageContext(), {
        maxBytes: bounds.maxBytes - meter.bytes,
        meter,
      });
      finalUrl = normaliseLink(page.finalUrl) ?? next.url;
      if (next.depth === 0) {
        // The start page moved to another host (example.com to www.example.com): its site is that host.
        scope = { ...scope, host: new URL(finalUrl).host };
        report.host = scope.host;
      } else if (!inScope(finalUrl, scope)) {
        report.failures.push({
          url: next.url,
          code: "out_of_scope",
          message: `redirected to ${page.finalUrl}, off the crawled site; not kept`,
        });
        continue;
      }
      // A redirect within the site may land where robots.txt says no: that page is not kept either.
      if (finalUrl !== next.url && (await robots.verdict(finalUrl, pageContext())) === "disallowed") {
        report.disallowed.push(finalUrl);
        continue;
      }
    } catch (error) {
      if (!ToolFailure.isInstance(error)) throw error;
      if (request.context.signal.aborted) throw error;
      // The egress client times out a little before the deadline it was given, so that it is what reports.
      if (error.envelopeCode === "timeout" && now() >= bounds.deadline - LAST_START_MS) {
        report.stoppedBy = "time";
        break;
      }
      // The start page failing (refused by egress, a spent quota, a 404) is the crawl failing: its envelope
      // says why. A later page failing is one line of the report.
      if (next.depth === 0) throw error;
      report.failures.push({ url: next.url, code: error.envelopeCode, message: error.message });
      // A page cut off by the budget (a vendor's answer can only be read whole) spends the rest of it.
      if (meter.bytes >= bounds.maxBytes) {
        report.stoppedBy = "bytes";
        break;
      }
      continue;
    }
    seen.add(finalUrl);
    if (kept.has(finalUrl)) continue;
    kept.add(finalUrl);
    report.pages.push({ ...page, depth: next.depth });
    for (const link of page.links) {
      const url = normaliseLink(link, page.finalUrl);
      if (url === undefined || seen.has(url) || !inScope(url, scope)) continue;
      if (next.depth >= bounds.maxDepth) {
        cutByDepth = true;
        continue;
      }
      seen.add(url);
      queue.push({ url, depth: next.depth + 1 });
    }
    if (page.truncated && meter.bytes >= bounds.maxBytes) {
      report.stoppedBy = "bytes";
      break;
    }
  }
  report.bytes = meter.bytes;
  report.robots = await robots.states();
  return report;
}
