/**
 * @module The Firecrawl provider (https://docs.firecrawl.dev/api-reference/endpoint/scrape): `POST /v2/scrape`
 * with `formats: ["markdown", "links"]` and the key as a bearer token injected by egress. Firecrawl answers
 * `{success, data: {markdown, links, metadata: {title, sourceURL, url, statusCode, error}}}`; its errors are
 * `{success: false, error}` with 402 for spent credits and 429 for its rate limit
 * (https://docs.firecrawl.dev/api-reference/errors). A crawl is walked here page by page with this scrape
 * rather than with Firecrawl's asynchronous /v2/crawl, so the same bounds, robots.txt reading and report
 * hold whichever provider reads the pages, and no job outlives the call.
 */
import { type EgressClient, ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import {
  endpointUrl,
  markdownLinks,
  shortDetail,
  type VendorIdentity,
  vendorJson,
} from "../provider-http.js";
import type { ScrapeProvider } from "../scrape-provider.js";

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

export function createFirecrawlProvider(
  egress: EgressClient,
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
  const scrape = (url: string, formats: string[], context: Parameters<ScrapeProvider["scrape"]>[1]) =>
    vendorJson(
      egress,
      context,
      identity,
      {
        url: endpoint,
        method: "POST",
        json: { url, formats, onlyMainContent: formats.includes("markdown") },
      },
      ScrapeAnswer,
      errorDetail,
    );
  return {
    name: "firecrawl",
    label: identity.label,
    async scrape(url, context) {
      const { answer, bytes } = await scrape(url, ["markdown", "links"], context);
      const metadata = answer.data.metadata ?? {};
      const finalUrl = metadata.url ?? metadata.sourceURL ?? url;
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
      try {
        const { answer } = await scrape(url, ["rawHtml"], context);
        return { status: answer.data.metadata?.statusCode ?? 200, text: answer.data.rawHtml ?? "" };
      } catch (error) {
        // Firecrawl failing is not the site answering: unreachable, so the crawler disallows all.
        if (ToolFailure.isInstance(error)) return { status: 0, text: "" };
        throw error;
      }
    },
  };
}
