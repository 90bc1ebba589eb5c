/**
 * @module The Brave Search API adapter (https://api-dashboard.search.brave.com/api-reference/web/search/get):
 * `GET /res/v1/web/search` with the key in `X-Subscription-Token`. Brave refuses a bad key with 422 (not
 * 401) and code `SUBSCRIPTION_TOKEN_INVALID`, and tells a per-second rate limit (`RATE_LIMITED`) from a
 * spent monthly quota (`QUOTA_LIMITED`) only in the body, with when each lifts in `X-RateLimit-Reset`.
 */
import { z } from "zod";
import type { EgressResponse } from "../../egress/egress-client.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import {
  credentialFailure,
  endpointUrl,
  quotaFailure,
  rateLimitFailure,
  shortDetail,
  statusFailure,
  type VendorIdentity,
} from "../toolkit/vendor-http.js";
import { searchOverHttp } from "./provider-http.js";
import { withSiteOperator } from "./search-options.js";
import type { Freshness, ProviderSetup, SearchProvider } from "./search-provider.js";

export const BRAVE_BASE_URL = "https://api.search.brave.com";
const PATH = "/res/v1/web/search";

/** Brave's own bounds on `q` (query parameter reference): 400 characters and 50 words. */
const MAX_QUERY_CHARS = 400;
const MAX_QUERY_WORDS = 50;

const FRESHNESS: Record<Freshness, string> = { day: "pd", week: "pw", month: "pm", year: "py" };

const BraveAnswer = z.object({
  type: z.literal("search"),
  // Absent when the query has no web results: the keys present depend on the plan and the query.
  web: z.object({ results: z.array(z.unknown()) }).optional(),
});
const BraveResult = z
  .object({
    title: z.string(),
    url: z.string(),
    description: z.string().optional(),
    // ISO date of the page; `age` is the same as text ("2 days ago") and comes when page_age does not.
    page_age: z.string().optional(),
    age: z.string().optional(),
  })
  .transform((result) => ({
    title: result.title,
    url: result.url,
    snippet: result.description ?? "",
    published: result.page_age ?? result.age,
  }));

/** The live API sends `error: {…}`; the reference's examples show `errors: [{…}]`. Both are read. */
const BraveError = z.object({
  error: z.object({ code: z.string().optional(), detail: z.string().optional() }).optional(),
  errors: z.array(z.object({ code: z.string().optional(), detail: z.string().optional() })).optional(),
});

export function createBraveProvider({ baseUrl, egress, credentialRef }: ProviderSetup): SearchProvider {
  const endpoint = endpointUrl(baseUrl, PATH);
  const identity: VendorIdentity = {
    label: "Brave Search",
    whenRefused: `the deployment must set the credential "${credentialRef}" to a valid Brave Search API subscription token`,
  };
  return {
    name: "brave",
    label: identity.label,
    endpoint,
    async search(query, { count, freshness, site }, context) {
      const q = withSiteOperator(query, site);
      if (q.length > MAX_QUERY_CHARS || q.trim().split(/\s+/).length > MAX_QUERY_WORDS) {
        throw new ToolFailure(
          "invalid_input",
          `Brave Search takes at most ${MAX_QUERY_CHARS} characters and ${MAX_QUERY_WORDS} words${site ? " (the site filter counts)" : ""}; shorten the query`,
        );
      }
      const url = new URL(endpoint);
      url.searchParams.set("q", q);
      url.searchParams.set("count", String(count));
      // Plain snippets: without this Brave marks the query's words in them with <strong>.
      url.searchParams.set("text_decorations", "false");
      url.searchParams.set("result_filter", "web");
      if (freshness) url.searchParams.set("freshness", FRESHNESS[freshness]);
      return searchOverHttp(egress, context, {
        identity,
        request: { url: url.href, method: "GET" },
        failure: braveFailure,
        answer: BraveAnswer,
        results: (answer) => answer.web?.results ?? [],
        result: BraveResult,
      });
    },
  };
}

function braveFailure(identity: VendorIdentity, response: EgressResponse, body: unknown): ToolFailure {
  const parsed = BraveError.safeParse(body);
  const error = parsed.success ? (parsed.data.error ?? parsed.data.errors?.[0]) : undefined;
  const detail = shortDetail(error?.code && error.detail ? `${error.code}: ${error.detail}` : error?.detail);
  switch (error?.code) {
    case "SUBSCRIPTION_TOKEN_INVALID":
      return credentialFailure(identity, response, detail);
    case "RATE_LIMITED":
      return rateLimitFailure(identity, response, detail, braveWait(response, "rate"));
    case "QUOTA_LIMITED":
      return quotaFailure(identity, response, detail, braveWait(response, "quota"));
    default:
      return statusFailure(identity, response, detail);
  }
}

/**
 * When Brave's limit lifts (response headers reference): `X-RateLimit-Reset: 1, 1419704` gives seconds
 * until each window (per second, per month) resets, and `X-RateLimit-Remaining` what is left in each. The
 * wait is the longest reset among spent windows; failing that, the shortest (a rate limit) or the longest
 * (a quota) window.
 */
function braveWait(response: EgressResponse, kind: "rate" | "quota"): number | undefined {
  const numbers = (header: string | undefined) =>
    (header ?? "").split(",").map((part) => Number.parseInt(part.trim(), 10));
  const resets = numbers(response.headers["x-ratelimit-reset"]);
  if (resets.some((reset) => !Number.isFinite(reset) || reset < 0)) return undefined;
  const remaining = numbers(response.headers["x-ratelimit-remaining"]);
  const spent = resets.filter((_, index) => remaining[index] !== undefined && remaining[index] <= 0);
  const candidates = spent.length > 0 ? spent : resets;
  const seconds = spent.length > 0 || kind === "quota" ? Math.max(...candidates) : Math.min(...candidates);
  return seconds * 1000;
}
