/**
 * @module The port every provider implements: one page read as markdown with the links it holds, and a
 * site's robots.txt read for the crawler. A provider throws a ToolFailure whose code a model can act on.
 */
import type { ToolContext } from "toolreg/toolkit";
import type { ProviderName } from "./scrape-config.js";

/** One page as a provider read it. */
export interface ScrapedPage {
  /** The URL asked for. */
  url: string;
  /** The URL that answered, after redirects: the page's provenance. */
  finalUrl: string;
  title: string | undefined;
  markdown: string;
  /** Absolute http(s) links found on the page, in page order, unnormalised. */
  links: readonly string[];
  /** What the page cost to read: the body's bytes for a direct fetch, the provider's answer otherwise. */
  bytes: number;
  /** True when the body went past the byte cap and only its start was read. */
  truncated: boolean;
}

/** A robots.txt as fetched: its HTTP status (0 when unreachable) and its text. */
export interface RobotsAnswer {
  status: number;
  text: string;
}

export interface ScrapeOptions {
  /** Caps what is read for the page (a crawl's remaining budget), never above the provider's own cap. */
  maxBytes?: number;
  /** Every answer's bytes are added here as it is read, a failed page's and a redirect's too. */
  meter?: { bytes: number };
}

export interface ScrapeProvider {
  name: ProviderName;
  /** Reads one page. */
  scrape(url: string, context: ToolContext, options?: ScrapeOptions): Promise<ScrapedPage>;
  /**
   * The robots.txt at `url`, or status 0 when it could not be reached (timed out, reset, the provider
   * failing). Throws `egress_refused` when the site itself may not be reached: its pages could not be either.
   */
  robots(url: string, context: ToolContext): Promise<RobotsAnswer>;
}
