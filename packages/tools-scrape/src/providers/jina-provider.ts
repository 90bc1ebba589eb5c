/**
 * @module The Jina Reader provider (https://jina.ai/reader, https://github.com/jina-ai/reader): `GET
 * https://r.jina.ai/<url>` with `Accept: application/json`, answered `{code, status, data: {title, url,
 * content, description, usage}}`; the key, when configured, goes as a bearer token injected by egress (a
 * keyless Reader works at a lower rate limit). Errors carry `{code, name, status, message, readableMessage}`,
 * 402 when the key's balance is spent and 429 over the rate limit.
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

export function createJinaProvider(
  egress: EgressClient,
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
  const read = (url: string, format: "markdown" | "text", context: Parameters<ScrapeProvider["scrape"]>[1]) =>
    vendorJson(
      egress,
      context,
      identity,
      { url: endpointUrl(baseUrl, `/${url}`), method: "GET", headers: { "x-return-format": format } },
      ReaderAnswer,
      errorDetail,
    );
  return {
    name: "jina",
    label: identity.label,
    async scrape(url, context) {
      const { answer, bytes } = await read(url, "markdown", context);
      const { data } = answer;
      return {
        url,
        finalUrl: data.url || url,
        title: data.title?.replace(/\s+/g, " ").trim().slice(0, 300) || undefined,
        markdown: data.content,
        links: markdownLinks(data.content),
        bytes,
        truncated: false,
      };
    },
    async robots(url, context) {
      try {
        const { answer } = await read(url, "text", context);
        return { status: 200, text: answer.data.content };
      } catch (error) {
        if (!ToolFailure.isInstance(error)) throw error;
        // Reader answers a page it could not read (a site's 404 among them) with a 4xx of its own; only
        // its key, credit and rate answers are about Jina. The first reads as no robots.txt, allowing
        // all; Jina itself failing is not the site answering, so unreachable, disallowing all.
        const status = error.details?.status;
        const aboutThePage = typeof status === "number" && status >= 400 && status < 500;
        if (aboutThePage && ![401, 402, 403, 429].includes(status)) return { status: 404, text: "" };
        return { status: 0, text: "" };
      }
    },
  };
}
