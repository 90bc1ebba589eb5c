/**
 * @module A `fetch` for the SDK's Streamable HTTP client that sends every request through the egress
 * client: the address checked and pinned, redirects refused, bodies bounded, credentials only from the
 * deployment's policy. The egress client reads a response whole, so the long-lived GET stream a client
 * may open for server notifications is declined here as a server without one would (405); replies to
 * POSTs, streamed or not, end and arrive whole.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { EGRESS_METHODS, type EgressClient, type EgressMethod } from "../../egress/egress-client.js";
import type { EgressCaller } from "../../egress/request-headers.js";
import { ToolFailure } from "../../errors/tool-failure.js";

export function egressFetch(egress: EgressClient, caller: EgressCaller): FetchLike {
  return async (url, init = {}) => {
    const method = (init.method ?? "GET").toUpperCase();
    if (method === "GET") return new Response(null, { status: 405, statusText: "Method Not Allowed" });
    if (!(EGRESS_METHODS as readonly string[]).includes(method)) {
      return new Response(null, { status: 405, statusText: "Method Not Allowed" });
    }
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = typeof init.body === "string" ? init.body : undefined;
    const response = await egress.request(url, {
      method: method as EgressMethod,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(init.signal ? { signal: init.signal } : {}),
      caller,
    });
    if (response.truncated) {
      throw new ToolFailure(
        "upstream_error",
        `the MCP server's reply from ${response.url} is over the egress policy's response cap`,
      );
    }
    // 204 and 304 carry no body, and a Response refuses one for them.
    const empty = response.status === 204 || response.status === 304 || method === "HEAD";
    return new Response(empty ? null : new Uint8Array(response.body), {
      status: response.status,
      headers: response.headers,
    });
  };
}
