/**
 * @module The SearXNG adapter for a self-hosted instance (https://docs.searxng.org/dev/search_api.html):
 * `GET /search?format=json`, no key. Its odd answers: 403 when the instance has not enabled the JSON
 * format, 429 "Too Many Requests" from its bot limiter, and 200 with no results when every engine behind
 * it failed, which only `unresponsive_engines` tells apart from an honest empty page. It has no count
 * parameter (a page is what its engines give) and no site filter of its own.
 */
import { z } from "zod";
import type { EgressResponse } from "../../egress/egress-client.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import {
  endpointUrl,
  rateLimitFailure,
  shortDetail,
  statusFailure,
  type VendorIdentity,
} from "../toolkit/vendor-http.js";
import { searchOverHttp } from "./provider-http.js";
import { unsupportedOption } from "./search-options.js";
import type { ProviderSetup, SearchProvider } from "./search-provider.js";

const SearxngAnswer = z.object({
  query: z.string(),
  results: z.array(z.unknown()),
  // [engine, translated error] pairs (searx/webutils.py get_translated_errors).
  unresponsive_engines: z.array(z.tuple([z.string(), z.string()])).optional(),
});
const SearxngResult = z
  .object({
    url: z.string(),
    title: z.string(),
    content: z.string().nullish(),
    // An ISO datetime, or null when the engine gave none.
    publishedDate: z.string().nullish(),
  })
  .transform((result) => ({
    title: result.title,
    url: result.url,
    snippet: result.content ?? "",
    published: result.publishedDate ?? undefined,
  }));
/** A bad parameter answers 400 with `{"error": "…"}` (searx/webapp.py index_error). */
const SearxngError = z.object({ error: z.string() });

export function createSearxngProvider({ baseUrl, egress }: ProviderSetup): SearchProvider {
  const endpoint = endpointUrl(baseUrl, "/search");
  const identity: VendorIdentity = {
    label: "SearXNG",
    whenRefused: `SearXNG takes no key, so the instance at ${baseUrl} sits behind a login toolreg cannot pass; configure an instance toolreg reaches directly`,
  };
  return {
    name: "searxng",
    label: identity.label,
    endpoint,
    async search(query, { freshness, site }, context) {
      if (site !== undefined) {
        // SearXNG hands `site:` to each engine, and the docs warn that engines which ignore it return
        // results from anywhere: a filter that may silently not filter is refused instead.
        throw unsupportedOption(
          identity.label,
          "site",
          "it passes site: to its engines, and not all honour it",
        );
      }
      const url = new URL(endpoint);
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      url.searchParams.set("pageno", "1");
      // The docs list day, month and year; the parameter parser (searx/webadapter.py) also takes week.
      if (freshness) url.searchParams.set("time_range", freshness);
      return searchOverHttp(egress, context, {
        identity,
        request: { url: url.href, method: "GET" },
        failure: (identity, response, body) => searxngFailure(identity, response, body, baseUrl),
        answer: SearxngAnswer,
        results: resultsOrEngineFailure,
        result: SearxngResult,
      });
    },
  };
}

/** The results; none with engines that failed is their failure, not an honest empty page. */
function resultsOrEngineFailure(answer: z.output<typeof SearxngAnswer>): readonly unknown[] {
  const failed = answer.unresponsive_engines ?? [];
  if (answer.results.length === 0 && failed.length > 0) {
    const engines = failed.map(([engine, error]) => `${engine} (${error})`).join(", ");
    throw new ToolFailure(
      "upstream_error",
      `SearXNG found nothing because its engines failed: ${shortDetail(engines)}; a retry may work`,
      { retryable: true, details: { unresponsiveEngines: failed.length } },
    );
  }
  return answer.results;
}

function searxngFailure(
  identity: VendorIdentity,
  response: EgressResponse,
  body: unknown,
  baseUrl: string,
): ToolFailure {
  if (response.status === 403) {
    return new ToolFailure(
      "upstream_error",
      `the SearXNG instance at ${baseUrl} refused format=json (403): its operator must add json to search.formats in settings.yml; retrying will not help`,
      { retryable: false, details: { status: 403 } },
    );
  }
  if (response.status === 429) {
    return rateLimitFailure(
      identity,
      response,
      "its bot limiter blocked toolreg's address; the instance's operator can exempt it (botdetection pass_ip) or turn the limiter off",
    );
  }
  const parsed = SearxngError.safeParse(body);
  return statusFailure(identity, response, parsed.success ? shortDetail(parsed.data.error) : undefined);
}
