/**
 * @module A WHATWG `fetch` that sends through the egress client, for a vendor SDK that takes a custom
 * fetch (Octokit does): the SDK keeps its pagination, errors and types, and every byte still goes through
 * the checks, the pinning, the caps and the credential injection of egress.
 */
import type { EgressClient, EgressMethod } from "../../egress/egress-client.js";
import { EGRESS_METHODS } from "../../egress/egress-client.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { ToolContext } from "../../seam/context.js";
import { callOptions } from "./egress-call.js";

/** Headers the egress client sets itself and refuses from a caller; an SDK sets some of them out of habit. */
const CLIENT_OWNED = new Set(["content-length", "accept-encoding", "connection", "host", "keep-alive"]);
const NO_BODY = new Set([101, 103, 204, 205, 304]);

export function egressFetch(egress: EgressClient, context: ToolContext): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const method = request.method.toUpperCase() as EgressMethod;
    if (!EGRESS_METHODS.includes(method))
      throw new ToolFailure("internal", `the SDK asked for a ${method} request`);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      if (!CLIENT_OWNED.has(name)) headers[name] = value;
    });
    const bytes =
      method === "GET" || method === "HEAD" ? undefined : new Uint8Array(await request.arrayBuffer());
    const response = await egress.request(request.url, {
      method,
      headers,
      ...(bytes && bytes.byteLength > 0 ? { body: bytes } : {}),
      ...callOptions(context),
    });
    if (response.truncated) {
      throw new ToolFailure(
        "upstream_error",
        `${response.url} sent more than the ${response.bytesRead}-byte cap; ask for fewer items`,
        { retryable: false, details: { url: response.url, status: response.status } },
      );
    }
    const answer = new Response(NO_BODY.has(response.status) ? null : new Uint8Array(response.body), {
      status: response.status,
      headers: response.headers,
    });
    // A constructed Response has no URL; SDKs name it in their errors.
    Object.defineProperty(answer, "url", { value: response.url });
    return answer;
  };
}
