/**
 * @module The Serper adapter (Google results; request and response as https://serper.dev/playground
 * shows them): `POST /search` with `{ q, num, tbs }` and the key in `X-API-KEY`. Serper publishes no error
 * reference; what is handled here is what it is seen to answer: a bad key is 403 `{"message":
 * "Unauthorized.","statusCode":403}`, and spent credits are a 400 whose message is "Not enough credits".
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
import { withSiteOperator } from "./search-options.js";
import type { Freshness, ProviderSetup, SearchProvider } from "./search-provider.js";

export const SERPER_BASE_URL = "https://google.serper.dev";

/** Google's `tbs` date restriction, which Serper passes through. */
const TBS: Record<Freshness, string> = { day: "qdr:d", week: "qdr:w", month: "qdr:m", year: "qdr:y" };

const SerperAnswer = z.object({
  searchParameters: z.object({ q: z.string() }),
  // Absent when Google found nothing.
  organic: z.array(z.unknown()).optional(),
});
const SerperResult = z
  .object({
    title: z.string(),
    link: z.string(),
    snippet: z.string().optional(),
    // Google's own wording: "Mar 5, 2024" or "3 days ago".
    date: z.string().optional(),
  })
  .transform((result) => ({
    title: result.title,
    url: result.link,
    snippet: result.snippet ?? "",
    published: result.date,
  }));
const SerperError = z.object({ message: z.string() });

export function createSerperProvider({ baseUrl, egress, credentialRef }: ProviderSetup): SearchProvider {
  const endpoint = endpointUrl(baseUrl, "/search");
  const identity: VendorIdentity = {
    label: "Serper",
    whenRefused: `the deployment must set the credential "${credentialRef}" to a valid serper.dev API key`,
  };
  return {
    name: "serper",
    label: identity.label,
    endpoint,
    async search(query, { count, freshness, site }, context) {
      const json = {
        q: withSiteOperator(query, site),
        num: count,
        ...(freshness ? { tbs: TBS[freshness] } : {}),
      };
      return searchOverHttp(egress, context, {
        identity,
        request: { url: endpoint, method: "POST", json },
        failure: serperFailure,
        answer: SerperAnswer,
        results: (answer) => answer.organic ?? [],
        result: SerperResult,
      });
    },
  };
}

function serperFailure(identity: VendorIdentity, response: EgressResponse, body: unknown): ToolFailure {
  const parsed = SerperError.safeParse(body);
  const detail = parsed.success ? shortDetail(parsed.data.message) : undefined;
  // Spent credits come back as a 400, told apart from a bad request only by the message.
  if (response.status === 400 && detail && /not enough credits/i.test(detail)) {
    return quotaFailure(identity, response, detail);
  }
  return statusFailure(identity, response, detail);
}
