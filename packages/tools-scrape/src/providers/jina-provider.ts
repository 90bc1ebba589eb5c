/**
 * @module The Jina Reader provider (https://jina.ai/reader, https://github.com/jina-ai/reader): `GET
 * https://r.jina.ai/<url>` with `Accept: application/json`, answered `{code, status, data: {title, url,
 * content, description, usage}}`; the key, when configured, goes as a bearer token injected by egress (a
 * keyless Reader works at a lower rate limit). Errors carry `{code, name, status, message, readableMessage}`,
 * 402 when the key's balance is spent and 429 over the rate limit.
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

export const JINA_BASE_URL = "https://r.jina.ai";

const ReaderAnswer = z.object({
  code: z.number(),
  status: z.number().optional(),
  data: z.looseObject({
    title: z.string().nullish(),
    url: z.string(),
    content: z.string(),
    description: z.string().nullish(),
  }),
});
const ReaderError = z.object({ message: z.string().optional(), readableMessage: z.string().optional() });

/**
 * `egress` reaches Reader only; `targets` (no host restriction) checks each page URL against the operator's
 * policy before Reader is asked to fetch it.
 */
export function createJinaProvider(
  egress: EgressClient,
  targets: EgressClient,
  baseUrl: string,
  credentialRef: string | undefined,
): ScrapeProvider {
  const identity: VendorIdentity = {
    label: "Jina Reader",
    whenRefused: credentialRef
      ? `the deployment must set the credential "${credentialRef}" to a valid Jina API key`
      : "the deployment may configure a Jina API key (credentialRef) for a higher limit",
  };
  const errorDetail = (body: unknown) => {
    const parsed = ReaderError.safeParse(body);
    return parsed.success ? shortDetail(parsed.data.readableMessage ?? parsed.data.message) : undefined;
  };
  const read = (
    url: string,
    format: "markdown" | "text",
    context: Parameters<ScrapeProvider["scrape"]>[1],
    options: ScrapeOptions = {},
  ) =>
    vendorJson(
      egress,
      context,
      identity,
      {
        url: endpointUrl(baseUrl, `/${url}`),
        method: "GET",
        headers: { "x-return-format": format },
        ...options,
      },
      ReaderAnswer,
      errorDetail,
    );
  return {
    name: "jina",
    async scrape(url, context, options) {
      await checkPageUrl(targets, identity, url, context);
      const { answer, bytes } = await read(url, "markdown", context, options);
      const { data } = answer;
      const finalUrl = data.url || url;
      // Reader follows redirects itself: a page that ended where egress would not go is not returned.
      if (finalUrl !== url) await checkPageUrl(targets, identity, finalUrl, context);
      return {
        url,
        finalUrl,
        title: data.title?.replace(/\s+/g, " ").trim().slice(0, 300) || undefined,
        markdown: data.content,
        links: markdownLinks(data.content),
        bytes,
        truncated: false,
      };
    },
    async robots(url, context) {
      if (!(await robotsUrlChecked(targets, identity, url, context))) return { status: 0, text: "" };
      try {
        const { answer } = await read(url, "text", context);
        return { status: 200, text: answer.data.content };
      } catch (error) {
        if (!ToolFailure.isInstance(error)) throw error;
        // Reader's browser not reaching the site (its 422 "Failed to goto <url>: <the navigation error>",
        // jina-ai/reader's puppeteer service) is the site unreachable; Jina failing (5xx, key, credits,
        // rate) is not the site answering either: both disallow all. A site's own 404 reaches here as the
        // page Reader rendered, which holds no rules and so allows all. Another 4xx of Reader's is about
        // the request for that page: no robots.txt to read, allowing all.
        const status = error.details?.status;
        const aboutThePage = typeof status === "number" && status >= 400 && status < 500;
        if (aboutThePage && ![401, 402, 403, 422, 429].includes(status)) return { status: 404, text: "" };
        return { status: 0, text: "" };
      }
    },
  };
}
