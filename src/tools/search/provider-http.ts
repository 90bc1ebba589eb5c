/**
 * @module What every search adapter does over HTTP, said once in `searchOverHttp`: send through egress
 * with the call's deadline, read the vendor's JSON or say plainly that it was not, map its results, and
 * turn an HTTP failure into the envelope code a model can act on. The sending, reading and failures are
 * the toolkit's vendor helpers (`../toolkit/vendor-http.ts`), shared with the vendor packages; each
 * adapter gives its request, its reader of the vendor's error body and its field mapping.
 */
import type { z } from "zod";
import type { EgressClient, EgressResponse } from "../../egress/egress-client.js";
import type { ToolFailure } from "../../errors/tool-failure.js";
import type { ToolContext } from "../../seam/context.js";
import { parseAnswer, sendRequest, type VendorIdentity } from "../toolkit/vendor-http.js";
import type { SearchHit } from "./search-provider.js";

/** A search answer is a page of snippets: a few hundred KB at most. More is not a search answer. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

export interface ProviderRequest {
  url: string;
  method: "GET" | "POST";
  /** Sent as JSON. */
  json?: unknown;
}

/** One search as an adapter describes it: what to send, how its vendor fails, and where its results are. */
export interface ProviderSearch<Answer> {
  identity: VendorIdentity;
  request: ProviderRequest;
  /** The failure a 4xx or 5xx answer means; `body` is the vendor's JSON error, when it sent one. */
  failure(identity: VendorIdentity, response: EgressResponse, body: unknown): ToolFailure;
  /** The vendor's documented answer. */
  answer: z.ZodType<Answer>;
  /** The answer's result items; throws when the answer itself says the search failed. */
  results(answer: Answer): readonly unknown[];
  /** One result as the vendor documents it, read into our hit. */
  result: z.ZodType<SearchHit>;
}

/** Sends the search, and returns its hits or throws the ToolFailure its answer means. */
export async function searchOverHttp<Answer>(
  egress: EgressClient,
  context: ToolContext,
  search: ProviderSearch<Answer>,
): Promise<SearchHit[]> {
  const { url, method, json } = search.request;
  const { response, body } = await sendRequest(egress, context, url, {
    method,
    ...(json === undefined ? {} : { json }),
    maxResponseBytes: MAX_RESPONSE_BYTES,
  });
  if (response.status >= 400) throw search.failure(search.identity, response, body);
  const answer = parseAnswer(search.identity, response, body, search.answer);
  return collectHits(search.results(answer), search.result);
}

/**
 * The vendor's result items in our shape. An item that is not what the vendor documents (no URL, say) is
 * skipped rather than failing the whole search: one odd result should not cost the others.
 */
function collectHits(items: readonly unknown[], schema: z.ZodType<SearchHit>): SearchHit[] {
  return items.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
