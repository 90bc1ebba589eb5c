/**
 * @module The Firecrawl provider (https://docs.firecrawl.dev/api-reference/endpoint/scrape): `POST /v2/scrape`
 * with `formats: ["markdown", "links"]` and the key as a bearer token injected by egress. Firecrawl answers
 * `{success, data: {markdown, links, metadata: {title, sourceURL, url, statusCode, error}}}`; its errors are
 * `{success: false, error}` with 402 for spent credits and 429 for its rate limit
 * (https://docs.firecrawl.dev/api-reference/errors). A crawl is walked here page by page with this scrape
 * rather than with Firecrawl's asynchronous /v2/crawl, so the same bounds, robots.txt reading and report
 * hold whichever provider reads the pages, and no job outlives the call.
 */
import {
  type EgressClient,
  endpointUrl,
  shortDetail,
  ToolFailure,
  type VendorIdentity,
} from "toolreg/toolkit";
import { z } from "zod";
import { checkPageUrl, markdownLinks, robotsUrlChecked, vendorJson } from "../provider-http.js";
import type { ScrapeOptions, ScrapeProvider } from "../scrape-provider.js";

export const FIRECRAWL_BASE_URL = "https://api.firecrawl.dev";

const Metadata = z.looseObject({
  title: z.union([z.string(), z.array(z.string())]).optional(),
  sourceURL: z.string().optional(),
  url: z.string().optional(),
  statusCode: z.number().optional(),
  error: z.string().nullish(),
});
const ScrapeAnswer = z.object({
  success: z.literal(true),
  data: z.looseObject({
    markdown: z.string().optional(),
    rawHtml: z.string().optional(),
    links: z.array(z.string()).optional(),
    metadata: Metadata.optional(),
  }),
});
const FirecrawlError = z.object({ error: z.string().optional() });

/**
 * `egress` reaches Firecrawl only; `targets` (no host restriction) checks each page URL against the
 * operator's policy before Firecrawl is asked to fetch it.
 */
export function createFirecrawlProvider(
  egress: EgressClient,
  targets: EgressClient,
  baseUrl: string,
  credentialRef: string,
): ScrapeProvider {
  const endpoint = endpointUrl(baseUrl, "/v2/scrape");
  const identity: VendorIdentity = {
    label: "Firecrawl",
    whenRefused: `the deployment must set the credential "${credentialRef}" to a valid Firecrawl API key (fc-…)`,
  };
  const errorDetail = (body: unknown) => {
    const parsed = FirecrawlError.safeParse(body);
    return parsed.success ? shortDetail(parsed.data.error) : undefined;
  };
  const scrape = (
    url: string,
    formats: string[],
    context: Parameters<ScrapeProvider["scrape"]>[1],
    options: ScrapeOptions = {},
  ) =>
    vendorJson(
      egress,
      context,
      identity,
      {
        url: endpoint,
        method: "POST",
        json: { url, formats, onlyMainContent: formats.includes("markdown") },
        ...options,
      },
      ScrapeAnswer,
      errorDetail,
    );
  return {
    name: "firecrawl",
    async scrape(url, context, options) {
      await checkPageUrl(targets, identity, url, context);
      const { answer, bytes } = await scrape(url, ["markdown", "links"], context, options);
      const metadata = answer.data.metadata ?? {};
      const finalUrl = metadata.url ?? metadata.sourceURL ?? url;
      // Firecrawl follows redirects itself: a page that ended where egress would not go is not returned.
      if (finalUrl !== url) await checkPageUrl(targets, identity, finalUrl, context);
      const status = metadata.statusCode;
      if (status !== undefined && status >= 400) {
        throw new ToolFailure(
          status === 429 ? "upstream_rate_limited" : "upstream_error",
          `Firecrawl reached ${finalUrl}, which answered ${status}${metadata.error ? ` (${shortDetail(metadata.error)})` : ""}`,
          { retryable: status === 429 || status >= 500, details: { url: finalUrl, status } },
        );
      }
      const markdown = answer.data.markdown ?? "";
      const title = Array.isArray(metadata.title) ? metadata.title[0] : metadata.title;
      return {
        url,
        finalUrl,
        title: title?.replace(/\s+/g, " ").trim().slice(0, 300) || undefined,
        markdown,
        links: answer.data.links ?? markdownLinks(markdown),
        bytes,
        truncated: false,
      };
    },
    async robots(url, context) {
      if (!(await robotsUrlChecked(targets, identity, url, context))) return { status: 0, text: "" };
      try {
        const { answer } = await scrape(url, ["rawHtml"], context);
        const text = plainTextOf(answer.data.rawHtml ?? "");
        return { status: answer.data.metadata?.statusCode ?? 200, text };
      } catch (error) {
        // Firecrawl failing is not the site answering: unreachable, so the crawler disallows all.
        if (ToolFailure.isInstance(error)) return { status: 0, text: "" };
        throw error;
      }
    },
  };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/**
 * A text file as a browser engine renders it: Chromium shows text/plain as a document whose body is one
 * `<pre>` holding the text, entity-escaped, and Firecrawl's rawHtml of such a page is that document. A lone
 * `<pre>` inside `<html>` is unwrapped and its entities decoded; anything else is returned as it came.
 */
export function plainTextOf(rawHtml: string): string {
  if (!/^\s*(?:<!doctype[^>]{0,100}>\s*)?<html[\s>]/i.test(rawHtml)) return rawHtml;
  const lower = rawHtml.toLowerCase();
  const open = lower.indexOf("<pre");
  if (open < 0 || lower.indexOf("<pre", open + 4) >= 0) return rawHtml;
  const start = lower.indexOf(">", open);
  const end = lower.indexOf("</pre>", start);
  if (start < 0 || end < 0) return rawHtml;
  return rawHtml
    .slice(start + 1, end)
    .replace(
      /&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]{2,6}));/gi,
      (entity, dec: string, hex: string, name: string) => {
        if (name !== undefined) return ENTITIES[name.toLowerCase()] ?? entity;
        const code = Number.parseInt(dec ?? hex, dec === undefined ? 16 : 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      },
    );
}
