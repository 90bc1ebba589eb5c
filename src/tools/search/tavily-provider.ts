/**
 * @module The Tavily adapter (https://docs.tavily.com/api-reference/endpoint/search): `POST /search` with
 * a JSON body and the key as a bearer token. Tavily's errors carry `{"detail": {"error": "…"}}`, and a
 * spent plan or pay-as-you-go limit is its own status, 432 or 433
 * (https://help.tavily.com/articles/8645538886-understanding-http-errors).
 */
import { z } from "zod";
import type { EgressResponse } from "../../egress/egress-client.js";
import type { ToolFailure } from "../../errors/tool-failure.js";
import {
  endpointUrl,
  quotaFailure,
  shortDetail,
  statusFailure,
  type VendorIdentity,
} from "../toolkit/vendor-http.js";
import { searchOverHttp } from "./provider-http.js";
import type { ProviderSetup, SearchProvider } from "./search-provider.js";

export const TAVILY_BASE_URL = "https://api.tavily.com";

const TavilyAnswer = z.object({ query: z.string(), results: z.array(z.unknown()) });
const TavilyResult = z
  .object({
    title: z.string(),
    url: z.string(),
    content: z.string().optional(),
    // Sent for the news topic; a general search usually has none.
    published_date: z.string().optional(),
  })
  .transform((result) => ({
    title: result.title,
    url: result.url,
    snippet: result.content ?? "",
    published: result.published_date,
  }));
const TavilyError = z.object({
  detail: z.union([z.string(), z.object({ error: z.string().optional() })]),
});

export function createTavilyProvider({ baseUrl, egress, credentialRef }: ProviderSetup): SearchProvider {
  const endpoint = endpointUrl(baseUrl, "/search");
  const identity: VendorIdentity = {
    label: "Tavily",
    whenRefused: `the deployment must set the credential "${credentialRef}" to a valid Tavily API key (tvly-…)`,
  };
  return {
    name: "tavily",
    label: identity.label,
    endpoint,
    async search(query, { count, freshness, site }, context) {
      const json = {
        query,
        max_results: count,
        topic: "general",
        search_depth: "basic",
        ...(freshness ? { time_range: freshness } : {}),
        ...(site ? { include_domains: [site] } : {}),
      };
      return searchOverHttp(egress, context, {
        identity,
        request: { url: endpoint, method: "POST", json },
        failure: tavilyFailure,
        answer: TavilyAnswer,
        results: (answer) => answer.results,
        result: TavilyResult,
      });
    },
  };
}

function tavilyFailure(identity: VendorIdentity, response: EgressResponse, body: unknown): ToolFailure {
  const parsed = TavilyError.safeParse(body);
  const detail = parsed.success
    ? shortDetail(typeof parsed.data.detail === "string" ? parsed.data.detail : parsed.data.detail.error)
    : undefined;
  // 432: the plan's limit; 433: the pay-as-you-go limit set on the dashboard.
  if (response.status === 432 || response.status === 433) return quotaFailure(identity, response, detail);
  return statusFailure(identity, response, detail);
}
