/**
 * @module The direct provider: the page fetched through the host's egress client under the operator's
 * policy, every redirect hop checked again there (a private literal, a public name resolving privately and a
 * redirect to either are refused at connect time), then its main content made markdown here.
 */
import {
  callOptions,
  type EgressClient,
  type EgressResponse,
  pageToMarkdown,
  type ToolContext,
  ToolFailure,
  throwIfHttpError,
} from "toolreg/toolkit";
import type { RobotsAnswer, ScrapedPage, ScrapeProvider } from "../scrape-provider.js";
import { decodeBody, isHtmlType, isTextType, MAX_LINKS } from "./page-body.js";

/**
 * Past this a page is cut, and says so. Readability and turndown run on the host's thread at about a megabyte
 * a second (the read_document HTML reader reasons the same way): a larger page would hold every other call.
 */
export const MAX_PAGE_BYTES = 1024 * 1024;
/** RFC 9309 2.3.1.2: crawlers follow at least five redirects; the egress client's ceiling is also five. */
const MAX_HOPS = 5;
/** RFC 9309 2.5: a parser must read at least 500 KiB of robots.txt; more is not read. */
const ROBOTS_BYTES = 512 * 1024;
const ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,text/*;q=0.8,*/*;q=0.1";

export function createDirectProvider(egress: EgressClient, userAgent: string): ScrapeProvider {
  const get = (
    url: string,
    context: ToolContext,
    accept: string,
    maxResponseBytes: number,
    meter?: { bytes: number },
  ) => followed(egress, url, { accept, "user-agent": userAgent }, maxResponseBytes, context, meter);
  return {
    name: "direct",
    async scrape(url, context, options = {}): Promise<ScrapedPage> {
      const cap = Math.max(0, Math.min(options.maxBytes ?? MAX_PAGE_BYTES, MAX_PAGE_BYTES));
      const response = await get(url, context, ACCEPT, cap, options.meter);
      throwIfHttpError(response);
      const type = (response.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
      const html =
        isHtmlType(type) || (type === "" && /^\s*</.test(response.body.subarray(0, 512).toString()));
      if (!html && !isTextType(type)) {
        throw new ToolFailure(
          "upstream_error",
          `${response.url} is ${type || "binary data"}, not a page or text; web_scrape reads pages`,
          { retryable: false, details: { url: response.url, contentType: type } },
        );
      }
      const text = decodeBody(response.body, response.headers["content-type"]);
      const page = html
        ? pageToMarkdown(text, response.url, { maxLinks: MAX_LINKS })
        : { title: undefined, markdown: text, links: [] };
      return {
        url,
        finalUrl: response.url,
        title: page.title,
        markdown: page.markdown,
        links: page.links,
        bytes: response.bytesRead,
        truncated: response.truncated,
      };
    },
    async robots(url, context): Promise<RobotsAnswer> {
      try {
        const response = await get(url, context, "text/plain", ROBOTS_BYTES);
        return { status: response.status, text: decodeBody(response.body, response.headers["content-type"]) };
      } catch (error) {
        // A refused address is the site's pages refused too: the crawler reports that, not robots.txt.
        if (ToolFailure.isInstance(error) && error.envelopeCode === "egress_refused") throw error;
        // Unreachable (timed out, reset): the crawler treats it as a server error, disallowing all.
        if (ToolFailure.isInstance(error)) return { status: 0, text: "" };
        throw error;
      }
    },
  };
}

/**
 * GET with redirects followed here, each hop a new egress request, so each is checked against the
 * operator's policy whatever it says about following redirects, and the credential-free page never
 * carries one across hosts.
 */
async function followed(
  egress: EgressClient,
  start: string,
  headers: Record<string, string>,
  maxResponseBytes: number,
  context: ToolContext,
  meter: { bytes: number } | undefined,
): Promise<EgressResponse> {
  let url = start;
  const seen: string[] = [];
  for (let hop = 0; ; hop++) {
    const response = await egress.request(url, {
      headers,
      maxResponseBytes,
      redirect: "manual",
      ...callOptions(context),
    });
    if (meter) meter.bytes += response.bytesRead;
    const location = response.headers.location;
    if (![301, 302, 303, 307, 308].includes(response.status) || location === undefined) {
      return { ...response, redirects: seen };
    }
    if (hop >= MAX_HOPS) {
      throw new ToolFailure(
        "upstream_error",
        `${start} redirected more than ${MAX_HOPS} times; not followed further`,
        {
          retryable: false,
          details: { url: start, redirects: seen.length },
        },
      );
    }
    seen.push(url);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new ToolFailure("upstream_error", `${url} redirected to an unreadable location`, {
        retryable: false,
        details: { url },
      });
    }
    next.hash = "";
    url = next.href;
  }
}
