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
import { decodeBody, htmlLinks, isHtmlType, isTextType } from "./page-body.js";

/** HTML shrinks several-fold on the way to markdown; past this a page is cut, and says so. */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;
/** RFC 9309 2.3.1.2: crawlers follow at least five redirects; the egress client's ceiling is also five. */
const MAX_HOPS = 5;
/** RFC 9309 2.5: a parser must read at least 500 KiB of robots.txt; more is not read. */
const ROBOTS_BYTES = 512 * 1024;
const ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,text/*;q=0.8,*/*;q=0.1";

export function createDirectProvider(egress: EgressClient, userAgent: string): ScrapeProvider {
  const get = (url: string, context: ToolContext, accept: string, maxResponseBytes: number) =>
    followed(egress, url, { accept, "user-agent": userAgent }, maxResponseBytes, context);
  return {
    name: "direct",
    label: "a direct fetch",
    async scrape(url, context, options = {}): Promise<ScrapedPage> {
      const cap = Math.max(0, Math.min(options.maxBytes ?? MAX_PAGE_BYTES, MAX_PAGE_BYTES));
      const response = await get(url, context, ACCEPT, cap);
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
        ? pageToMarkdown(text, response.url)
        : { title: undefined, markdown: text, mainContent: false };
      return {
        url,
        finalUrl: response.url,
        title: page.title,
        markdown: page.markdown,
        links: html ? htmlLinks(text, response.url) : [],
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
